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

inline Config config(const std::vector<std::string>& sets, const char* base = kSmallDragonfly) {
  std::vector<Override> ov;
  for (auto& s : sets) ov.push_back(parse_override(s));
  return load_config_string(base, ov);
}

inline nlohmann::json run(const std::vector<std::string>& sets, const char* base = kSmallDragonfly) {
  return simulate(config(sets, base));
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

}  // namespace ccsim::test
