// Per-channel utilization (sim.channel_stats): the channels carry every flit-hop
// of the window, and under ADV+1 with minimal routing the global channel
// between consecutive groups is the busiest, saturated at a flit per cycle.
#include <gtest/gtest.h>

#include <cmath>

#include "test_util.h"

namespace ccsim {
namespace {

TEST(ChannelStats, ChannelsCarryEveryFlitHopOfTheWindow) {
  // Traffic stops at 2,000 and the network drains well before the window ends
  // at 6,000, so the window holds every flit-hop of the run.
  auto r = test::run({"sim.channel_stats=true", "sim.warmup=0", "sim.measure=6000", "traffic.stop=2000",
                      "traffic.load=0.2", "traffic.packet_size=4"});
  const auto& c = r["channels"];
  const double cycles = c["window_cycles"].get<double>();
  double flits = 0;
  for (auto& router : c["routers"])
    for (auto& port : router)
      if (!port.is_null()) flits += port.get<double>() * cycles;
  for (auto& node : c["injection"]) flits += node.get<double>() * cycles;
  EXPECT_EQ(std::llround(flits), r["perf"]["flit_hops"].get<int64_t>());
  EXPECT_FALSE(c.contains("cut_short"));
}

TEST(ChannelStats, MinUnderAdvPlusOneSaturatesTheGlobalChannelToTheNextGroup) {
  // 72-node dragonfly (a = 4 routers per group, 9 groups): each group's 8 nodes
  // offer 4 flits/cycle to the next group, which one global channel carries.
  auto r =
      test::run({"sim.channel_stats=true", "traffic.pattern=\"adv\"", "traffic.load=0.5", "routing.algorithm=\"min\""});
  const auto& top = r["channels"]["busiest"][0];
  EXPECT_EQ(top["kind"], "global");
  EXPECT_GT(top["utilization"].get<double>(), 0.95);
  const int a = 4, groups = 9;
  EXPECT_EQ(top["to_router"].get<int>() / a, (top["router"].get<int>() / a + 1) % groups);
  EXPECT_LE(r["channels"]["by_kind"]["global"]["max"].get<double>(), 1.0);
}

TEST(ChannelStats, OffByDefault) { EXPECT_FALSE(test::run({"traffic.load=0.1"}).contains("channels")); }

}  // namespace
}  // namespace ccsim
