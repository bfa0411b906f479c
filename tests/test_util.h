// Helpers shared by the tests: small configs and one-call simulations.
#pragma once
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config_loader.h"
#include "routing/routing.h"
#include "simulate.h"

namespace ccsim::test {

// A 72-node dragonfly (p=2, a=4, h=2, 9 groups), BookSim-like link latencies.
inline const char* kSmallDragonfly = R"(
[topology]
kind = "dragonfly"
p = 2
a = 4
h = 2
[router]
vcs = 4
[sim]
warmup = 1000
measure = 4000
)";

// 000's FB16 (4 routers of 4 nodes) with its router (VOQ, 2x speedup) and CBCM, but 10-cycle
// channels and 64-flit buffers, so that runs are short.
inline const char* kCbcmFb16Network = R"(
[topology]
kind = "flatfly"
k = 4
n = 1
c = 4
[router]
vcs = 4
speedup = 2
voq = true
buffer_depth = 64
[routing]
algorithm = "ugal_l"
[congestion]
protocol = "cbcm"
)";

// 000's Fig. 2 traffic on FB16: nodes 0, 5, 8, 12 send to node 4 at 100% (the "hotspot"
// class), the others uniform random among themselves (the "ur" class, at traffic.load).
inline const char* kFb16HotspotClasses = R"(
[[traffic.class]]
name = "ur"
nodes = "rest"
pattern = "uniform"
[[traffic.class]]
name = "hotspot"
nodes = "list:0,4,5,8,12"
pattern = "hotspot"
hotspot_sources = 0
hotspot_dest_list = "4"
load = 1.0
)";

// 004's network (section 5.1): a k-ary 2-cube (004: k = 16), 3 VCs of 8-flit
// edge buffers, wormhole, 1-cycle channels. Tests append their [routing],
// [traffic] and [sim].
inline std::string network_of_004(int k = 16) {
  return "[topology]\nkind = \"torus\"\nk = " + std::to_string(k) + R"(
n = 2
c = 1
[router]
vcs = 3
buffer_depth = 8
latency = 2
output_buffer = 1
switching = "wormhole"
[links]
terminal_latency = 1
local_latency = 1
)";
}

inline Config config(const std::vector<std::string>& sets, const char* base = kSmallDragonfly) {
  std::vector<Override> ov;
  for (auto& s : sets) ov.push_back(parse_override(s));
  return load_config_string(base, ov);
}

// The key of the ConfigError a run of `sets` stops with; "no error" when it runs.
inline std::string config_error_key(const std::vector<std::string>& sets, const char* base = kSmallDragonfly) {
  try {
    simulate(config(sets, base));
  } catch (const ConfigError& e) {
    return e.key();
  }
  return "no error";
}

inline nlohmann::json run(const std::vector<std::string>& sets, const char* base = kSmallDragonfly) {
  return simulate(config(sets, base));
}

// The one line of the ConfigError a run of `sets` stops with; "" when it runs.
inline std::string config_error(const std::vector<std::string>& sets, const char* base = kSmallDragonfly) {
  try {
    run(sets, base);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

// Wraps a routing function and puts every hop on VC slot 0: for Valiant this
// makes the channel dependency graph cyclic, so the network can deadlock.
class SingleVcRouting : public RoutingFunction {
 public:
  explicit SingleVcRouting(std::unique_ptr<RoutingFunction> inner) : inner_(std::move(inner)) {}
  RouteResult route(RouterContext& c, int in, Packet& p) override {
    RouteResult r = inner_->route(c, in, p);
    r.slot = 0;
    return r;
  }
  int vc_slots() const override { return 1; }

 private:
  std::unique_ptr<RoutingFunction> inner_;
};

// A routing function that passes every call to the one it wraps; tests derive
// from it to watch or count what the wrapped routing does.
class ForwardingRouting : public RoutingFunction {
 public:
  explicit ForwardingRouting(std::unique_ptr<RoutingFunction> inner) : inner_(std::move(inner)) {}
  RouteResult route(RouterContext& c, int in, Packet& p) override { return inner_->route(c, in, p); }
  int vc_slots() const override { return inner_->vc_slots(); }
  uint32_t slot_vcs(int slot, int vcs) const override { return inner_->slot_vcs(slot, vcs); }
  bool reroutes_when_blocked() const override { return inner_->reroutes_when_blocked(); }
  bool atomic_vc_allocation(int slot) const override { return inner_->atomic_vc_allocation(slot); }
  bool needs_recovery() const override { return inner_->needs_recovery(); }
  bool honours_minimal_only() const override { return inner_->honours_minimal_only(); }
  int escape_slots() const override { return inner_->escape_slots(); }
  RouteResult reroute(RouterContext& c, int in, Packet& p) override { return inner_->reroute(c, in, p); }
  bool wants_queue_events() const override { return inner_->wants_queue_events(); }
  void on_head_at_front(RouterContext& c, int in, const Packet& p) override { inner_->on_head_at_front(c, in, p); }
  void on_tail_left(RouterContext& c, int in, const Packet& p) override { inner_->on_tail_left(c, in, p); }
  bool wants_forward_events() const override { return inner_->wants_forward_events(); }
  void on_forward(RouterContext& c, const Packet& p, int in, int out) override { inner_->on_forward(c, p, in, out); }
  nlohmann::json stats() const override { return inner_->stats(); }
  std::vector<hw::Block> hardware_blocks() const override { return inner_->hardware_blocks(); }

 protected:
  std::unique_ptr<RoutingFunction> inner_;
};

// Wraps a routing function and counts, per window of cycles, the packets
// routed at their source router and the global misrouting decisions taken:
// the routing's reaction by decision time (results' series are by delivery
// time, which lags by the path latency).
class DecisionCounter : public ForwardingRouting {
 public:
  DecisionCounter(std::unique_ptr<RoutingFunction> inner, Cycle window, size_t windows)
      : ForwardingRouting(std::move(inner)), window_(window), injected_(windows), misrouted_(windows) {}
  RouteResult route(RouterContext& c, int in, Packet& p) override {
    const bool injected = p.hops == 0, was_misrouted = p.misrouted;
    RouteResult r = inner_->route(c, in, p);
    const size_t w = static_cast<size_t>(c.cycle() / window_);
    if (w < injected_.size()) {
      injected_[w] += injected;
      misrouted_[w] += p.misrouted && !was_misrouted;
    }
    return r;
  }
  // Misrouting decisions per packet injected in window w.
  double misrouted_fraction(size_t w) const {
    return injected_[w] ? static_cast<double>(misrouted_[w]) / static_cast<double>(injected_[w]) : 0.0;
  }
  size_t windows() const { return injected_.size(); }
  Cycle window() const { return window_; }

 private:
  Cycle window_;
  std::vector<int64_t> injected_, misrouted_;
};

}  // namespace ccsim::test
