#include "traffic/traffic_source.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace ccsim {

TrafficSource::TrafficSource(sc_core::sc_module_name name, int nodes, uint64_t seed)
    : sc_core::sc_module(name), nodes_(nodes), seed_(seed) {
  for (int n = 0; n < nodes; ++n) sockets.push_back(std::make_unique<Socket>(fmt::format("to_nic_{}", n).c_str()));
  trans_.set_command(tlm::TLM_WRITE_COMMAND);
  trans_.set_data_ptr(reinterpret_cast<unsigned char*>(&req_));
  trans_.set_data_length(sizeof(req_));
  trans_.set_streaming_width(sizeof(req_));
}

void TrafficSource::add_class(const TrafficClassSpec& spec) {
  const int cls = static_cast<int>(classes_.size());
  classes_.push_back({spec, 0, 0, {}, std::vector<int64_t>(nodes_, 0), std::vector<double>(nodes_, 0.0)});
  ClassState& c = classes_.back();
  for (int n = 0; n < nodes_; ++n)
    c.rng.emplace_back(Rng::derive(seed_, 200 + static_cast<uint64_t>(cls), static_cast<uint64_t>(n)));
  for (size_t p = 1; p < spec.phases.size(); ++p) heap_.push({spec.phases[p].at, cls, -1, 0});
  start_phase(cls, spec.phases[0].at - 1);
}

// Arrivals of the current phase from cycle from+1 on; older events go stale.
void TrafficSource::start_phase(int cls, Cycle from) {
  ClassState& c = classes_[cls];
  ++c.epoch;
  const TrafficPhase& ph = c.spec.phases[c.phase];
  if (ph.load <= 0) return;
  const double interval = static_cast<double>(ph.packets) * ph.packet_size / ph.load;
  for (int n : c.spec.nodes) {
    c.burst_left[n] = 0;
    // Periodic: the first message at a random point of the first interval, so nodes do not move in step.
    if (ph.arrivals == TrafficPhase::Arrivals::Periodic)
      c.due[n] = static_cast<double>(from) + 1 - interval + c.rng[n].uniform() * interval;
    if (ph.pattern->is_source(n)) schedule(n, cls, from);
  }
}

void TrafficSource::schedule(int node, int cls, Cycle from) {
  ClassState& c = classes_[cls];
  const TrafficPhase& ph = c.spec.phases[c.phase];
  Rng& rng = c.rng[node];
  const double flits = static_cast<double>(ph.packets) * ph.packet_size;
  Cycle at = from;
  if (ph.arrivals == TrafficPhase::Arrivals::Bernoulli) {
    at += rng.geometric(ph.load / flits);
  } else if (ph.arrivals == TrafficPhase::Arrivals::Periodic) {
    c.due[node] += flits / ph.load;
    at = std::max(from + 1, static_cast<Cycle>(std::ceil(c.due[node])));
  } else {
    if (c.burst_left[node] == 0) {
      // Off period before the next burst, sized so the long-run rate is `load`:
      // a burst of B messages takes B*flits/rate cycles and carries B*flits flits.
      c.burst_left[node] = rng.geometric(1.0 / ph.burst_length);
      const double off = ph.burst_length * flits * (1.0 / ph.load - 1.0 / ph.burst_rate);
      at += rng.geometric(1.0 / (off + 1.0)) - 1;
    }
    --c.burst_left[node];
    at += rng.geometric(ph.burst_rate / flits);
  }
  if (at < c.spec.stop) heap_.push({at, cls, node, c.epoch});
}

void TrafficSource::generate(Cycle now) {
  while (!heap_.empty() && heap_.top().at <= now) {
    const Event e = heap_.top();
    heap_.pop();
    ClassState& c = classes_[e.cls];
    if (e.node < 0) {
      ++c.phase;
      start_phase(e.cls, now - 1);
      continue;
    }
    if (e.epoch != c.epoch) continue;
    const TrafficPhase& ph = c.spec.phases[c.phase];
    MessageRequest req;
    req.dst = ph.pattern->dest(e.node, c.rng[e.node]);
    req.packets = ph.packets;
    req.packet_size = ph.packet_size;
    req.traffic_class = static_cast<int16_t>(e.cls);
    send(e.node, req);
    schedule(e.node, e.cls, now);
  }
}

void TrafficSource::send(int node, const MessageRequest& req) {
  req_ = req;
  trans_.set_address(static_cast<uint64_t>(req_.dst));
  trans_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  if (targets_.empty())  // bound by now: the first message is sent during simulation
    for (auto& s : sockets) targets_.push_back((*s).operator->());
  targets_[node]->b_transport(trans_, delay);
}

}  // namespace ccsim
