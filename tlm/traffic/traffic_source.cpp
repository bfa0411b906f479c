#include "traffic/traffic_source.h"

#include <fmt/format.h>

namespace ccsim {

TrafficSource::TrafficSource(sc_core::sc_module_name name, int nodes, uint64_t seed)
    : sc_core::sc_module(name), nodes_(nodes), seed_(seed) {
  for (int n = 0; n < nodes; ++n)
    sockets.push_back(std::make_unique<Socket>(fmt::format("to_nic_{}", n).c_str()));
  trans_.set_command(tlm::TLM_WRITE_COMMAND);
  trans_.set_data_ptr(reinterpret_cast<unsigned char*>(&req_));
  trans_.set_data_length(sizeof(req_));
  trans_.set_streaming_width(sizeof(req_));
}

void TrafficSource::add_class(const TrafficClassSpec& spec) {
  const int cls = static_cast<int>(classes_.size());
  classes_.push_back(spec);
  rng_.emplace_back();
  for (int n = 0; n < nodes_; ++n)
    rng_.back().emplace_back(Rng::derive(seed_, 200 + static_cast<uint64_t>(cls), static_cast<uint64_t>(n)));
  if (spec.load <= 0) return;
  for (int n = 0; n < nodes_; ++n)
    if (spec.pattern->is_source(n)) schedule(n, cls, spec.start - 1);
}

void TrafficSource::schedule(int node, int cls, Cycle from) {
  const TrafficClassSpec& c = classes_[cls];
  const double p = c.load / (static_cast<double>(c.packets) * c.packet_size);
  const Cycle at = from + rng_[cls][node].geometric(p);
  if (at < c.stop) heap_.push({at, node, cls});
}

void TrafficSource::generate(Cycle now) {
  while (!heap_.empty() && heap_.top().at <= now) {
    const Event e = heap_.top();
    heap_.pop();
    const TrafficClassSpec& c = classes_[e.cls];
    Rng& rng = rng_[e.cls][e.node];
    req_.dst = c.pattern->dest(e.node, rng);
    req_.packets = c.packets;
    req_.packet_size = c.packet_size;
    req_.traffic_class = static_cast<int16_t>(e.cls);
    trans_.set_address(static_cast<uint64_t>(req_.dst));
    trans_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    (*sockets[e.node])->b_transport(trans_, delay);
    schedule(e.node, e.cls, now);
  }
}

}  // namespace ccsim
