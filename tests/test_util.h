// Helpers shared by the tests: small configs and one-call simulations.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config_loader.h"
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

}  // namespace ccsim::test
