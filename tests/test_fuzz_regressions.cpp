// Defects the config fuzzer (scripts/fuzz_config.py) found, one test each:
// every one of these once hung, crawled, overflowed or named no key.
#include <gtest/gtest.h>

#include "core/params.h"
#include "core/scheduler.h"
#include "hw/selection.h"
#include "test_util.h"
#include "traffic/patterns.h"

using namespace ccsim;

namespace {

using test::config_error;

struct Counter : Component {
  std::vector<Cycle> steps;
  void step(Cycle now) override { steps.push_back(now); }
};

}  // namespace

// hot_fraction = 1 with a one-node hot region: its only node looped forever
// looking for a hot destination other than itself.
TEST(FuzzRegressions, OneNodeHotRegionLetsItsNodeSendElsewhere) {
  HotRegionPattern p(16, 1.0, 0.01);
  Rng rng(5);
  for (int i = 0; i < 100; ++i) EXPECT_NE(p.dest(0, rng), 0);
  EXPECT_EQ(p.dest(3, rng), 0);  // everyone else sends to the hot node
}

// 32 VCs in one class shifted a 32-bit 1 by 32 (undefined): nothing was delivered.
TEST(FuzzRegressions, ThirtyTwoVcsDeliver) {
  const auto j = test::run({"router.vcs=32", "traffic.load=0.3", "sim.warmup=200", "sim.measure=500"});
  EXPECT_GT(j["packets_delivered"].get<int64_t>(), 0.8 * j["packets_created"].get<double>());  // as with 4 VCs
}

// Buffers of 2^20 flits overflowed the VC allocator's int score.
TEST(FuzzRegressions, HugeBuffersDeliver) {
  const auto j = test::run({"router.buffer_depth=1048576", "router.output_buffer=1048576",
                            "router.global_buffer_depth=0", "traffic.load=0.3", "sim.warmup=200", "sim.measure=500"});
  EXPECT_GT(j["packets_delivered"].get<int64_t>(), 1000);
}

// A wake-up beyond the wheel's 2^16 cycles waits aside and is stepped on time;
// an idle wheel jumps there at once (a 16M-cycle link once crawled cycle by
// cycle through a 16M-bucket wheel).
TEST(FuzzRegressions, FarWakeUpIsSteppedOnTime) {
  Scheduler s(1 << 24);
  Counter c;
  s.wake(&c, 5'000'000);
  EXPECT_EQ(s.next_due(), 5'000'000);
  s.skip_to(s.next_due());
  s.run_cycle();
  EXPECT_EQ(c.steps, (std::vector<Cycle>{5'000'000}));
  EXPECT_TRUE(s.idle());
}

TEST(FuzzRegressions, UgalThresholdHasARange) {
  const std::string e = config_error({"routing.algorithm=ugal_l", "routing.ugal_threshold=9000000000"});
  EXPECT_NE(e.find("routing.ugal_threshold"), std::string::npos) << e;
}

TEST(FuzzRegressions, LhrpWithDeadlockRecoveryIsRefusedNamingTheKey) {
  const std::string e = config_error({"congestion.protocol=lhrp", "routing.deadlock=recovery"});
  EXPECT_NE(e.find("routing.deadlock"), std::string::npos) << e;
}

// Without the verilated RTL, asking for an RTL block names the key that asked.
TEST(FuzzRegressions, RtlWithoutTheBuildNamesTheKey) {
  if (hw::rtl_available()) GTEST_SKIP() << "this build has the RTL";
  const std::string e = config_error({"hardware.token_throttler=rtl"});
  EXPECT_NE(e.find("hardware.token_throttler"), std::string::npos) << e;
}
