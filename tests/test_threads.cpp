// sim.threads: the routers and NICs of a run step on several threads with results
// identical to one thread; a mechanism that reads beyond its router (or acts as a
// NIC injects) keeps them on one thread and the results say which. (scripts/determinism.py compares 1,
// 2 and 3 threads on random samples of every gate config.)
#include <gtest/gtest.h>

#include "test_util.h"

namespace ccsim {
namespace {

// The result without what may differ between thread counts: speed and the echo of sim.threads.
nlohmann::json comparable(nlohmann::json j) {
  j.erase("perf");
  j["config"].erase("sim.threads");
  return j;
}

struct Case {
  const char* name;
  std::vector<std::string> sets;
  const char* base;
};

// Busy networks, where a cycle's routers interact most; short windows keep the test quick.
std::vector<Case> parallel_cases() {
  const std::vector<std::string> w = {"sim.warmup=300", "sim.measure=700"};
  auto with = [&](std::vector<std::string> sets) {
    sets.insert(sets.end(), w.begin(), w.end());
    return sets;
  };
  return {
      {"dragonfly MIN, UR", with({"traffic.load=0.7"}), test::kSmallDragonfly},
      {"dragonfly MIN, ADV+1, 4-flit packets",
       with({"traffic.pattern=\"adv\"", "traffic.load=0.5", "traffic.packet_size=4"}), test::kSmallDragonfly},
      {"dragonfly VAL", with({"routing.algorithm=\"val\"", "traffic.load=0.4"}), test::kSmallDragonfly},
      {"dragonfly UGAL-L, ADV+1", with({"routing.algorithm=\"ugal_l\"", "traffic.pattern=\"adv\"", "traffic.load=0.4"}),
       test::kSmallDragonfly},
      {"dragonfly OLM, ladder, re-evaluated",
       with({"routing.algorithm=\"olm\"", "router.vcs=3", "routing.vc_scheme=\"opportunistic\"",
             "routing.reevaluate=true", "traffic.load=0.6"}),
       test::kSmallDragonfly},
      {"dragonfly Base, counters' mean",
       with({"routing.algorithm=\"base\"", "router.vcs=3", "routing.vc_scheme=\"opportunistic\"",
             "routing.reevaluate=true", "routing.counter_stats=true", "traffic.pattern=\"adv\"", "traffic.load=0.4"}),
       test::kSmallDragonfly},
      {"dragonfly Hybrid",
       with(
           {"routing.algorithm=\"hybrid\"", "router.vcs=3", "routing.vc_scheme=\"opportunistic\"", "traffic.load=0.6"}),
       test::kSmallDragonfly},
      {"dragonfly PAR6/2, VOQ, hot spot",
       with({"routing.algorithm=\"par62\"", "router.voq=true", "router.vcs=6", "traffic.pattern=\"hotspot\"",
             "traffic.hotspot_sources=24", "traffic.hotspot_dests=2", "traffic.load=0.4"}),
       test::kSmallDragonfly},
      {"dragonfly MIN, hot spot with ACKs (NIC-side protocol)",
       with({"congestion.acks=true", "traffic.pattern=\"hotspot\"", "traffic.hotspot_sources=12",
             "traffic.hotspot_dests=2", "traffic.load=0.5", "traffic.packet_size=4", "traffic.message_size=2"}),
       test::kSmallDragonfly},
      {"flattened butterfly UGAL-L, VOQ, speedup 2", with({"traffic.load=0.6", "congestion.protocol=\"none\""}),
       test::kCbcmFb16Network},
  };
}

TEST(Threads, RoutersStepInParallelWithResultsIdenticalToOneThread) {
  for (const Case& c : parallel_cases()) {
    std::vector<std::string> one = c.sets;
    one.push_back("sim.threads=1");
    const nlohmann::json reference = test::run(one, c.base);
    EXPECT_EQ(reference["perf"]["router_threads"], 1) << c.name;
    ASSERT_GT(reference["perf"]["flit_hops"].get<int64_t>(), 3000) << c.name;
    for (int threads : {2, 3}) {
      std::vector<std::string> sets = c.sets;
      sets.push_back("sim.threads=" + std::to_string(threads));
      const nlohmann::json r = test::run(sets, c.base);
      EXPECT_EQ(r["perf"]["router_threads"], threads) << c.name;
      EXPECT_EQ(r["perf"]["nic_threads"], threads) << c.name;
      EXPECT_FALSE(r["perf"].contains("threads_obstacle")) << c.name;
      EXPECT_FALSE(r["perf"].contains("nic_threads_obstacle")) << c.name;
      EXPECT_EQ(comparable(r), comparable(reference)) << c.name << ", " << threads << " threads";
    }
  }
}

TEST(Threads, WhatReadsBeyondItsRouterKeepsTheRoutersOnOneThreadAndSaysWhy) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"routing.algorithm=\"ugal_g\""}, "routing.algorithm"},
      {{"routing.algorithm=\"ectn\"", "router.vcs=3", "routing.vc_scheme=\"opportunistic\""},
       "routing.algorithm"},  // its broadcast reads the group's counters
      {{"congestion.protocol=\"lhrp\""}, "congestion.protocol"},
      {{"congestion.protocol=\"ecn\""}, "congestion.protocol"},
      {{"routing.algorithm=\"ugal_l\"", "router.occupancy=\"downstream\""}, "router.occupancy"},
      {{"sim.trace=\"packets\"", "sim.trace_file=\"" + testing::TempDir() + "ccsim_threads_trace.json\""}, "sim.trace"},
  };
  for (auto& [sets, key] : cases) {
    std::vector<std::string> two = sets;
    two.push_back("sim.threads=2");
    const nlohmann::json r = test::run(two);
    EXPECT_EQ(r["perf"]["router_threads"], 1) << key;
    ASSERT_TRUE(r["perf"].contains("threads_obstacle")) << key;
    EXPECT_NE(r["perf"]["threads_obstacle"].get<std::string>().find(key), std::string::npos)
        << r["perf"]["threads_obstacle"];
    std::vector<std::string> one = sets;
    one.push_back("sim.threads=1");
    EXPECT_EQ(comparable(r), comparable(test::run(one))) << key;
  }
}

TEST(Threads, WhatActsAtTheNicsKeepsThemOnOneThreadAndSaysWhy) {
  // The routers still step in parallel; a motif's next message waits for a delivery at another NIC.
  const std::vector<std::string> sets = {"traffic.motif=\"alltoall\"", "traffic.nodes=\"range:0-31\"",
                                         "traffic.iterations=20", "sim.measure=500"};
  std::vector<std::string> two = sets;
  two.push_back("sim.threads=2");
  const nlohmann::json r = test::run(two);
  EXPECT_EQ(r["perf"]["router_threads"], 2);
  EXPECT_EQ(r["perf"]["nic_threads"], 1);
  ASSERT_TRUE(r["perf"].contains("nic_threads_obstacle"));
  EXPECT_NE(r["perf"]["nic_threads_obstacle"].get<std::string>().find("traffic.motif"), std::string::npos)
      << r["perf"]["nic_threads_obstacle"];
  std::vector<std::string> one = sets;
  one.push_back("sim.threads=1");
  EXPECT_EQ(comparable(r), comparable(test::run(one)));
}

TEST(Threads, ACountOutsideItsRangeNamesTheKey) {
  EXPECT_EQ(test::config_error_key({"sim.threads=0"}), "sim.threads");
  EXPECT_EQ(test::config_error_key({"sim.threads=1000"}), "sim.threads");
}

}  // namespace
}  // namespace ccsim
