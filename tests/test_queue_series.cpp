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

TEST(QueueSeries, NeedsATimeSeries) {
  EXPECT_EQ(test::config_error_key({"sim.queue_series=true"}), "sim.queue_series");
}

}  // namespace
}  // namespace ccsim
