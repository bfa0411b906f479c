// Queue occupancy over time (sim.queue_series): one value per series window and
// port kind; empty queues without traffic; under MIN and ADV+1 the global ports
// of a dragonfly queue up.
#include <gtest/gtest.h>

#include <algorithm>

#include "test_util.h"

namespace ccsim {
namespace {

TEST(QueueSeries, OneValuePerWindowAndPortKind) {
  auto r = test::run({"sim.queue_series=true", "sim.series_window=500", "traffic.load=0.0"});
  const auto& q = r["series"]["queue_flits"];
  for (const char* kind : {"terminal", "local", "global"}) {
    ASSERT_TRUE(q.contains(kind)) << kind;
    EXPECT_EQ(q[kind].size(), r["series"]["t"].size()) << kind;
    for (auto& v : q[kind]) EXPECT_EQ(v.get<double>(), 0.0) << kind;  // no traffic, no queue
  }
}

TEST(QueueSeries, GlobalPortsQueueUnderAdvPlusOneWithMin) {
  auto global = [](const char* pattern, const char* load) {
    auto r =
        test::run({"sim.queue_series=true", "sim.series_window=500", std::string("traffic.pattern=\"") + pattern + "\"",
                   std::string("traffic.load=") + load, "routing.algorithm=\"min\""});
    return r["series"]["queue_flits"]["global"].back().get<double>();
  };
  // One saturated global channel per group (ADV+1) against light uniform traffic.
  const double adv = global("adv", "0.5"), light = global("uniform", "0.05");
  EXPECT_GT(adv, 1.0);
  EXPECT_LT(light, 0.5);
}

TEST(QueueSeries, ChosenRoutersPortByPortAddUpToTheNetworkMeans) {
  // Every router chosen: the mean over their ports of a kind is the network's series.
  auto r = test::run({"sim.queue_series=true", "sim.series_window=500", "sim.queue_routers=\"range:0-35\"",
                      "traffic.pattern=\"adv\"", "traffic.load=0.5", "routing.algorithm=\"min\""});
  const auto& q = r["series"]["queue_flits"];
  ASSERT_EQ(q["routers"].size(), 36u);
  const size_t windows = r["series"]["t"].size();
  for (const char* kind : {"terminal", "local", "global"}) {
    std::vector<double> sum(windows, 0.0);
    int ports = 0;
    for (auto& router : q["routers"])
      for (auto& port : router["ports"]) {
        ASSERT_EQ(port["flits"].size(), windows);
        if (port["kind"] != kind) continue;
        ++ports;
        for (size_t w = 0; w < windows; ++w) sum[w] += port["flits"][w].get<double>();
      }
    ASSERT_GT(ports, 0) << kind;
    for (size_t w = 0; w < windows; ++w) EXPECT_NEAR(sum[w] / ports, q[kind][w].get<double>(), 1e-9) << kind << w;
  }
}

TEST(QueueSeries, NeedsATimeSeries) {
  EXPECT_EQ(test::config_error_key({"sim.queue_series=true"}), "sim.queue_series");
  EXPECT_EQ(test::config_error_key({"sim.queue_routers=\"list:1\""}), "sim.queue_routers");
  EXPECT_EQ(test::config_error_key({"sim.queue_series=true", "sim.series_window=500", "sim.queue_routers=\"list:36\""}),
            "sim.queue_routers");
  EXPECT_EQ(test::config_error_key({"sim.queue_series=true", "sim.series_window=500", "sim.queue_routers=\"all\""}),
            "sim.queue_routers");
}

}  // namespace
}  // namespace ccsim
