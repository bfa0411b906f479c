// Adaptive routing on the dragonfly behaves as the papers describe.
#include <gtest/gtest.h>

#include "test_util.h"

using namespace ccsim;

TEST(AdaptiveRouting, MatchesMinimalLatencyAtLowUniformLoad) {
  const double min_lat = test::run({"routing.algorithm=min", "traffic.load=0.05"})["avg_packet_latency"];
  for (const char* alg : {"ugal_l", "ugal_g", "par"}) {
    auto j = test::run({std::string("routing.algorithm=") + alg, "traffic.load=0.05"});
    EXPECT_NEAR(j["avg_packet_latency"].get<double>(), min_lat, 0.05 * min_lat) << alg;
  }
}

TEST(AdaptiveRouting, ValiantDoublesGlobalHopsUnderUniformTraffic) {
  auto min = test::run({"routing.algorithm=min", "traffic.load=0.05"});
  auto val = test::run({"routing.algorithm=val", "traffic.load=0.05"});
  EXPECT_GT(val["avg_hops"].get<double>(), min["avg_hops"].get<double>() + 1.0);
  EXPECT_GT(val["misrouted_fraction"].get<double>(), 0.8);
}

TEST(AdaptiveRouting, AdaptiveAlgorithmsBeatMinimalUnderAdversarialTraffic) {
  const double bound = 1.0 / 8;
  for (const char* alg : {"ugal_l", "par"}) {
    auto j = test::run({std::string("routing.algorithm=") + alg, "traffic.pattern=adv", "traffic.load=0.3"});
    EXPECT_GT(j["accepted_throughput"].get<double>(), 2 * bound) << alg;
  }
}
