#include "congestion/contention_degree_monitor.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "congestion/protocol_context.h"

namespace ccsim {

void ContentionDegreeMonitor::build(ProtocolContext& net, const ContentionDegreeParams& p) {
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
    routers_.push_back(
        {{hw::make_contention_degree(c, net.hardware(), fmt::format("router:{}", i)), std::vector<uint8_t>(radix, 0)},
         blocks::RequestSelector(radix, static_cast<uint32_t>(net.seed() * 7919 + i)),
         steps});
  }
  dests_.clear();
  if (p.per_destination) {
    dests_.reserve(net.num_routers());
    for (int i = 0; i < net.num_routers(); ++i) {
      blocks::ContentionDegreeUnit::Config c;
      c.radix = net.num_nodes();
      c.num_samples = p.num_samples;
      c.bound_sample_interval = p.bound_sample_interval;
      c.num_bound_samples = p.num_bound_samples;
      c.num_inputs = net.topology().radix(i) * routers_[i].weight_steps;  // as the output degree
      c.metric_threshold = routers_[i].weight_steps;
      dests_.push_back({hw::make_contention_degree(c, hw::Selection{}, fmt::format("router:{}", i)),
                        std::vector<uint8_t>(net.num_nodes(), 0)});
    }
    widest = std::max(widest, net.num_nodes());
    dcw_dest_.assign(net.num_nodes(), 0.0);
  }
  zeros_.assign(widest, 0);
  dcw_.assign(widest, 0.0);
  requests_.reserve(64);
}

void ContentionDegreeMonitor::catch_up(FedUnit& f, Cycle now) {
  if (f.pending_valid && f.next < now) {
    f.unit->step(f.pending.data(), f.next);
    f.pending_valid = false;
    ++f.next;
  }
  while (f.next < now) {
    if (f.unit->idle()) {
      f.unit->skip_idle(static_cast<uint64_t>(now - f.next), f.next);
      f.next = now;
      break;
    }
    f.unit->step(zeros_.data(), f.next);
    ++f.next;
  }
}

void ContentionDegreeMonitor::add_input(PerRouter& r, int in) {
  const int v = static_cast<int>(requests_.size());
  if (v == 0) return;
  const bool per_dest = p_.per_destination;
  if (p_.weighted) {
    for (int o : requests_) dcw_[o] += 1.0 / v;
    if (per_dest)
      for (int d : request_dsts_) dcw_dest_[d] += 1.0 / v;
  } else {
    const int k = r.selector.select(in, v);
    ++r.out.pending[requests_[k]];
    if (per_dest) ++dests_[&r - routers_.data()].pending[request_dsts_[k]];
  }
  requests_.clear();
  request_dsts_.clear();
}

void ContentionDegreeMonitor::sample(const SwitchView& router, Cycle now) {
  PerRouter& r = routers_[router.id()];
  catch_up(r.out, now);
  const int radix = router.radix();
  std::fill(r.out.pending.begin(), r.out.pending.end(), 0);
  if (p_.weighted) std::fill(dcw_.begin(), dcw_.begin() + radix, 0.0);
  FedUnit* d = p_.per_destination ? &dests_[router.id()] : nullptr;
  if (d) {
    catch_up(*d, now);
    std::fill(d->pending.begin(), d->pending.end(), 0);
    if (p_.weighted) std::fill(dcw_dest_.begin(), dcw_dest_.end(), 0.0);
  }
  int input = -1;
  router.visit_requests(now, [&](int in, int, int out, const Packet& p, bool has_vc) {
    if ((p_.ignored_classes >> p.vc_class & 1u) || (p_.va_only && has_vc)) return;
    if (in != input) {
      add_input(r, input);
      input = in;
    }
    requests_.push_back(out);
    if (d) request_dsts_.push_back(p.dst);
  });
  add_input(r, input);
  if (p_.weighted)
    for (int o = 0; o < radix; ++o) r.out.pending[o] = static_cast<uint8_t>(std::lround(dcw_[o] * r.weight_steps));
  else
    r.selector.step();
  r.out.pending_valid = true;
  if (d) {
    if (p_.weighted)
      for (size_t k = 0; k < d->pending.size(); ++k)
        d->pending[k] = static_cast<uint8_t>(std::lround(dcw_dest_[k] * r.weight_steps));
    d->pending_valid = true;
  }
}

bool ContentionDegreeMonitor::congested(int router, int port, Cycle now) {
  FedUnit& f = routers_[router].out;
  catch_up(f, now);
  return f.unit->congested(port);
}

bool ContentionDegreeMonitor::congested_towards(int router, int dst, Cycle now) {
  FedUnit& d = dests_[router];
  catch_up(d, now);
  return d.unit->congested(dst);
}

}  // namespace ccsim
