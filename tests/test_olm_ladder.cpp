// OLM's VC ladder (routing.vc_scheme = "opportunistic", 3 VCs): the in-transit
// algorithms run on it past saturation without deadlock, misroute, and name
// the router settings their deadlock freedom needs. The graph of waits is
// checked in test_deadlock_freedom.cpp.
#include <gtest/gtest.h>

#include <string>

#include "test_util.h"

using namespace ccsim;

namespace {

const std::vector<std::string> kLadder = {"routing.vc_scheme=\"opportunistic\"", "router.vcs=3"};

std::vector<std::string> ladder(const char* alg, std::vector<std::string> more = {}) {
  std::vector<std::string> sets = kLadder;
  sets.push_back(std::string("routing.algorithm=") + alg);
  sets.insert(sets.end(), more.begin(), more.end());
  return sets;
}

using test::config_error;

}  // namespace

// ADV+1 overloads the one global link to the next group: the in-transit
// algorithms misroute globally, and at twice MIN's bound nothing deadlocks and
// every flit injected is delivered or still in a buffer at the end (the run's
// own conservation check).
TEST(OlmLadder, InTransitAlgorithmsRunPastSaturationWithoutDeadlock) {
  const double min_bound = 1.0 / 8;
  for (const char* alg : {"olm", "base", "hybrid", "ectn"}) {
    auto j = test::run(ladder(alg, {"traffic.pattern=adv", "traffic.load=0.6", "sim.deadlock_cycles=2000"}));
    EXPECT_FALSE(j["deadlock"].get<bool>()) << alg;
    EXPECT_GT(j["misrouted_fraction"].get<double>(), 0.3) << alg;
    EXPECT_GT(j["accepted_throughput"].get<double>(), 2 * min_bound) << alg;
  }
}

TEST(OlmLadder, RouterSettingsItCannotRunWithGetOneLine) {
  const std::string prefix = "routing.vc_scheme: \"opportunistic\" needs ";
  EXPECT_EQ(config_error({"routing.algorithm=olm", "routing.vc_scheme=\"opportunistic\""})
                .rfind(prefix + "router.vcs = 3", 0),
            0u);
  EXPECT_EQ(config_error(ladder("olm", {"router.voq=true"})).rfind(prefix + "router.voq = false", 0), 0u);
  EXPECT_EQ(config_error(ladder("base", {"router.switching=\"wormhole\""})).rfind(prefix + "router.switching", 0), 0u);
  EXPECT_EQ(
      config_error(ladder("hybrid", {"router.va_arbiter=\"round_robin\""})).rfind(prefix + "router.va_arbiter", 0), 0u);
  EXPECT_EQ(config_error({"routing.algorithm=min", "routing.vc_scheme=\"opportunistic\""})
                .rfind("routing.vc_scheme: unknown key", 0),
            0u);
}

// FOGSim's ThMin (002 II-C): with large downstream buffers a blocked minimal
// output's credit count fills slowly after a change to ADV+1, and OLM waits for
// it before misrouting. 002's router and buffers (Fig. 8) on the small dragonfly.
TEST(OlmLadder, AMinimumCreditOccupancyDelaysMisroutingAfterAChange) {
  // UN, then ADV+1 from cycle 2000 (the end of warm-up), two classes on every node.
  const std::string toml = std::string(test::kSmallDragonfly) + R"(
[links]
local_latency = 10
global_latency = 100
[traffic]
load = 0.2
packet_size = 8
[[traffic.class]]
name = "first"
nodes = "all"
pattern = "uniform"
stop = 2000
[[traffic.class]]
name = "second"
nodes = "all"
pattern = "adv"
offset = 1
start = 2000
)";
  auto misrouted = [&](const char* min_percent) {
    auto j =
        test::run(ladder("olm", {"router.speedup=2", "router.latency=5", "router.output_buffer=32",
                                 "router.local_buffer_depth=256", "router.global_buffer_depth=2048", "sim.warmup=2000",
                                 "sim.measure=2000", std::string("routing.olm_min_occupancy_percent=") + min_percent}),
                  toml.c_str());
    return j["misrouted_fraction"].get<double>();
  };
  const double none = misrouted("0"), half = misrouted("50");
  EXPECT_GT(none, 0.2);
  EXPECT_LT(half, none - 0.05);
}
