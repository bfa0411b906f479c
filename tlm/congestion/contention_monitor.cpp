#include "congestion/contention_monitor.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/network.h"
#include "core/router.h"

namespace ccsim {

void ContentionMonitor::build(Network& net, const ContentionParams& p) {
  p_ = p;
  routers_.clear();
  routers_.reserve(net.num_routers());
  int widest = 0;
  for (int i = 0; i < net.num_routers(); ++i) {
    const int radix = net.topology().radix(i);  // attach() runs before the routers exist
    widest = std::max(widest, radix);
    blocks::ContentionDegreeUnit::Config c;
    c.radix = radix;
    c.num_samples = p.num_samples;
    c.bound_sample_interval = p.bound_sample_interval;
    c.num_bound_samples = p.num_bound_samples;
    const int steps = p.weighted ? weight_steps(radix) : 1;
    c.num_inputs = radix * steps;
    c.metric_threshold = steps;  // metric > 1 in units of the fixed point
    routers_.push_back({hw::make_contention_degree(c, net.hardware(), fmt::format("router:{}", i)),
                        blocks::RequestSelector(radix, static_cast<uint32_t>(net.seed() * 7919 + i)),
                        std::vector<uint8_t>(radix, 0), false, 0, steps});
  }
  zeros_.assign(widest, 0);
  dcw_.assign(widest, 0.0);
  requests_.reserve(64);
}

void ContentionMonitor::catch_up(PerRouter& r, Cycle now) {
  if (r.pending_valid && r.next < now) {
    r.unit->step(r.pending.data(), r.next);
    r.pending_valid = false;
    ++r.next;
  }
  while (r.next < now) {
    if (r.unit->idle()) {
      r.unit->skip_idle(static_cast<uint64_t>(now - r.next), r.next);
      r.next = now;
      break;
    }
    r.unit->step(zeros_.data(), r.next);
    ++r.next;
  }
}

void ContentionMonitor::add_input(PerRouter& r, int in) {
  const int v = static_cast<int>(requests_.size());
  if (v == 0) return;
  if (p_.weighted) {
    for (int o : requests_) dcw_[o] += 1.0 / v;
  } else {
    ++r.pending[requests_[r.selector.select(in, v)]];
  }
  requests_.clear();
}

void ContentionMonitor::sample(const Router& router, Cycle now) {
  PerRouter& r = routers_[router.id()];
  catch_up(r, now);
  const int radix = router.radix();
  std::fill(r.pending.begin(), r.pending.end(), 0);
  if (p_.weighted) std::fill(dcw_.begin(), dcw_.begin() + radix, 0.0);
  int input = -1;
  router.for_each_request(now, [&](int in, int, int out, const Packet& p, bool has_vc) {
    if ((p_.ignored_classes >> p.vc_class & 1u) || (p_.va_only && has_vc)) return;
    if (in != input) {
      add_input(r, input);
      input = in;
    }
    requests_.push_back(out);
  });
  add_input(r, input);
  if (p_.weighted)
    for (int o = 0; o < radix; ++o) r.pending[o] = static_cast<uint8_t>(std::lround(dcw_[o] * r.weight_steps));
  else
    r.selector.step();
  r.pending_valid = true;
}

bool ContentionMonitor::congested(int router, int port, Cycle now) {
  PerRouter& r = routers_[router];
  catch_up(r, now);
  return r.unit->congested(port);
}

}  // namespace ccsim
