// 004's self-tuned throttling, ALO and Disha-style recovery: the side-band
// gather completes in exactly (k/2)*h*n cycles with the global sums at every
// router; the hill-climbing tuner follows Table 1 and the local-maximum
// escape on scripted throughput; beyond saturation base loses throughput
// while tune keeps 90% of its peak; ALO holds packets only under congestion;
// fully adaptive routing runs with recovery and rescues blocked packets.
#include <gtest/gtest.h>

#include <numeric>

#include "congestion/hill_climb_tuner.h"
#include "congestion/selftune.h"
#include "congestion/sideband_gather.h"
#include "core/params.h"
#include "core/rng.h"
#include "test_util.h"
#include "topology/torus.h"

using namespace ccsim;

namespace {

// 004's 16-ary 2-cube (experiments/torus_16x16.toml), short runs.
const std::string kTorus16Text = test::network_of_004() + R"(
[routing]
algorithm = "duato"
[traffic]
pattern = "uniform"
packet_size = 16
[sim]
warmup = 3000
measure = 6000
drain_cap = 1
)";
const char* kTorus16 = kTorus16Text.c_str();

// Runs a gather of random words on a k-ary n-cube; checks the completion cycle and the sums.
void check_gather(int k, int n, int h, int width, int count_bits, int tp_bits) {
  const Torus t(k, n, 1, true);
  SidebandParams p;
  p.hop_delay = h;
  p.width = width;
  p.count_bits = count_bits;
  p.throughput_bits = tp_bits;
  SidebandGather g(t, p);
  const int beats = (count_bits + tp_bits + width - 1) / width;
  const Cycle expected = static_cast<Cycle>(k / 2) * (h + beats - 1) * n;
  EXPECT_EQ(g.duration(), expected) << k << "-ary " << n << "-cube";
  Rng rng(k * 100 + n);
  std::vector<SidebandWord> local(t.num_routers());
  uint64_t full = 0, delivered = 0;
  for (auto& w : local) {
    w.full = rng.below(13);
    w.delivered = rng.below(33);
    full += w.full;
    delivered += w.delivered;
  }
  const Cycle t0 = 37;
  g.start(local, t0);
  Cycle done = -1;
  for (Cycle c = t0; c <= t0 + 4 * expected + 8; ++c)
    if (g.advance(c)) {
      done = c;
      break;
    }
  EXPECT_EQ(done, t0 + expected) << k << "-ary " << n << "-cube";
  const uint32_t fmax = (1u << count_bits) - 1, dmax = (1u << tp_bits) - 1;
  for (int r = 0; r < t.num_routers(); ++r) {
    ASSERT_EQ(g.result(r).full, std::min<uint64_t>(full, fmax)) << "router " << r;
    ASSERT_EQ(g.result(r).delivered, std::min<uint64_t>(delivered, dmax)) << "router " << r;
  }
}

}  // namespace

TEST(SidebandGather, CompletesInKHalfTimesHopTimesNWithGlobalSumsEverywhere) {
  check_gather(4, 2, 2, 25, 12, 13);   // g = 8
  check_gather(6, 2, 1, 25, 12, 13);   // g = 6
  check_gather(5, 2, 3, 25, 12, 13);   // odd k: floor(5/2) = 2 steps per phase, g = 12
  check_gather(4, 3, 2, 25, 12, 13);   // 3 dimensions, g = 12
  check_gather(16, 2, 2, 25, 12, 13);  // 004: g = 32
  check_gather(8, 2, 2, 9, 12, 13);    // 9-bit side-band: 3 beats, 4 cycles per hop
  check_gather(8, 2, 2, 25, 5, 6);     // narrow fields saturate
}

TEST(SidebandGather, NetworkGatherDurationIs32CyclesOn004sTorus) {
  auto j = test::run({"congestion.protocol=\"selftune\"", "traffic.load=0.05", "sim.warmup=200", "sim.measure=400"},
                     kTorus16);
  EXPECT_EQ(j["congestion"]["gather_cycles"], 32);
  EXPECT_EQ(j["congestion"]["tune_period"], 96);
  EXPECT_EQ(j["congestion"]["total_buffers"], 3072);
  const int64_t cycles = j["cycles"];
  EXPECT_GE(j["congestion"]["gathers"].get<int64_t>(), cycles / 32 - 1);
}

TEST(HillClimbTuner, FollowsTheDecisionTable) {
  TunerParams p;
  p.initial = 300;
  p.local_max = false;
  HillClimbTuner t(p);
  using A = HillClimbTuner::Action;
  struct Step {
    int64_t tp;
    bool throttled;
    A action;
    int64_t threshold;
  };
  const Step script[] = {
      {1000, true, A::Increment, 330},  // no drop, throttling: +1%
      {1000, false, A::None, 330},      // no drop, not throttling: no change
      {760, true, A::Increment, 360},   // 24% drop is no drop
      {560, true, A::Decrement, 238},   // 26% drop, throttling: -4%
      {400, false, A::Decrement, 116},  // 28.6% drop, not throttling: -4%
      {400, true, A::Increment, 146},  {100, false, A::Decrement, 24}, {50, false, A::Decrement, 0},  // clamped at 0
  };
  for (const Step& s : script) {
    EXPECT_EQ(t.tune(s.tp, 0, s.throttled), s.action) << "throughput " << s.tp;
    EXPECT_EQ(t.threshold(), s.threshold) << "throughput " << s.tp;
  }
}

TEST(HillClimbTuner, LocalMaximumEscapeResetsToMinOfTmaxNmaxAndForgetsAfterRResets) {
  TunerParams p;
  p.initial = 300;
  p.resets = 2;
  HillClimbTuner t(p);
  using A = HillClimbTuner::Action;
  EXPECT_EQ(t.tune(1000, 200, true), A::Increment);  // max 1000, N_max 200, T_max 300
  EXPECT_EQ(t.threshold(), 330);
  EXPECT_EQ(t.tune(900, 400, true), A::Increment);  // 90% of max: not significant
  EXPECT_EQ(t.threshold(), 360);
  EXPECT_EQ(t.tune(700, 500, true), A::ResetToMax);  // below 75% of max
  EXPECT_EQ(t.threshold(), 200);                     // min(T_max 300, N_max 200)
  EXPECT_EQ(t.consecutive_resets(), 1);
  EXPECT_EQ(t.tune(720, 450, true), A::ResetToMax);  // second in a row: r = 2 reached
  EXPECT_EQ(t.threshold(), 200);
  EXPECT_EQ(t.max_throughput(), 0);                 // max forgotten
  EXPECT_EQ(t.tune(720, 450, true), A::Increment);  // new max 720; no drop from 720
  EXPECT_EQ(t.max_throughput(), 720);
  EXPECT_EQ(t.t_max(), 200);
  EXPECT_EQ(t.threshold(), 230);
  // A creep below the new max: escape to min(T_max 200, N_max 450) = 200.
  EXPECT_EQ(t.tune(600, 900, false), A::None);  // 83% of max, no drop, not throttling
  EXPECT_EQ(t.tune(500, 900, false), A::ResetToMax);
  EXPECT_EQ(t.threshold(), 200);
}

TEST(HillClimbTuner, WithoutLocalMaxAvoidanceAGradualDeclineKeepsRaisingTheThreshold) {
  TunerParams p;
  p.initial = 300;
  p.local_max = false;
  HillClimbTuner t(p);
  int64_t tp = 1000;
  for (int i = 0; i < 20; ++i, tp -= 30) t.tune(tp, 0, true);  // -3% per period: never a 25% drop
  EXPECT_EQ(t.threshold(), 300 + 20 * 30);
  EXPECT_EQ(t.decrements, 0);
}

TEST(SelfTune, StaticModeKeepsItsThresholdAndTraceHasOneEntryPerPeriod) {
  auto j = test::run({"congestion.protocol=\"selftune\"", "congestion.selftune_mode=\"static\"",
                      "congestion.selftune_threshold=123", "traffic.load=0.5", "sim.warmup=500", "sim.measure=1000"},
                     kTorus16);
  const auto& tr = j["congestion"]["trace"];
  ASSERT_GE(tr["threshold"].size(), 10u);
  for (auto& v : tr["threshold"]) EXPECT_EQ(v, 123);
  EXPECT_EQ(tr["cycle"][0], 96);
  EXPECT_GT(j["congestion"]["throttled_cycles"].get<int64_t>(), 0);
}

namespace {
double accepted(const char* protocol, const char* load, std::vector<std::string> extra = {}) {
  extra.push_back(std::string("congestion.protocol=\"") + protocol + "\"");
  extra.push_back(std::string("traffic.load=") + load);
  extra.push_back("sim.warmup=2000");
  extra.push_back("sim.measure=4000");
  auto j = test::run(extra, kTorus16);
  EXPECT_FALSE(j["deadlock"].get<bool>());
  return j["accepted_throughput"].get<double>();
}
}  // namespace

// Base peaks near 0.28 at offered 0.28 and falls beyond; tune with 004's
// parameters does better than base there.
TEST(SelfTune, BeyondSaturationBaseLosesThroughputAndTuneDoesBetter) {
  const double base_peak = accepted("none", "0.28"), base_over = accepted("none", "0.6");
  const double tune_over = accepted("selftune", "0.6");
  EXPECT_LT(base_over, 0.85 * base_peak) << "base: peak " << base_peak << ", beyond " << base_over;
  EXPECT_GT(tune_over, base_over + 0.02) << "tune with 004's r = 5";
}

// With 004's r = 5 and "significant" = 25% below max, tune keeps only ~70-85%
// of its peak on this network over long runs (docs/congestion.md): the best
// throughput is forgotten after r resets and relearned higher up. With r = 20
// and a 10% margin it keeps 90% of its peak.
TEST(SelfTune, BeyondSaturationTuneKeepsNinetyPercentOfItsPeak) {
  const std::vector<std::string> robust = {"congestion.selftune_resets=20", "congestion.selftune_max_drop=0.1"};
  const double tune_peak = accepted("selftune", "0.28", robust), tune_over = accepted("selftune", "0.6", robust);
  EXPECT_GE(tune_over, 0.9 * tune_peak) << "tune: peak " << tune_peak << ", beyond " << tune_over;
}

TEST(Alo, HoldsPacketsOnlyWhenTheUsefulChannelsAreBusy) {
  auto low =
      test::run({"congestion.protocol=\"alo\"", "traffic.load=0.02", "sim.warmup=500", "sim.measure=2000"}, kTorus16);
  auto high =
      test::run({"congestion.protocol=\"alo\"", "traffic.load=0.6", "sim.warmup=500", "sim.measure=2000"}, kTorus16);
  const double low_held = low["congestion"]["held"].get<double>() / low["congestion"]["checks"].get<double>();
  const double high_held = high["congestion"]["held"].get<double>() / high["congestion"]["checks"].get<double>();
  EXPECT_LT(low_held, 0.01);
  EXPECT_GT(high_held, 0.3);
  EXPECT_NEAR(low["accepted_throughput"].get<double>(), 0.02, 0.003);
}

// ALO's free VC is one no packet holds; "drained" also waits for the output
// queue and the downstream buffer to empty, so it finds fewer free VCs and
// holds more packets back at the same load.
TEST(Alo, DrainedVcsHoldBackMoreThanUnheldOnes) {
  auto held = [](const char* free_vc) {
    auto r = test::run({"congestion.protocol=\"alo\"", std::string("congestion.alo_free_vc=\"") + free_vc + "\"",
                        "traffic.load=0.3", "sim.warmup=500", "sim.measure=2000"},
                       kTorus16);
    return r["congestion"]["held"].get<double>() / r["congestion"]["checks"].get<double>();
  };
  const double unheld = held("unheld"), drained = held("drained");
  EXPECT_GT(drained, unheld + 0.05) << "unheld " << unheld << ", drained " << drained;
}

TEST(SelfTune, EstimateExtrapolatesTheLastTwoSnapshotsWithinZeroAndTheTotal) {
  EXPECT_EQ(extrapolate(100, 50, 0, 32, 3072), 100);
  EXPECT_EQ(extrapolate(100, 50, 16, 32, 3072), 125);  // half a gather later: half the last step
  EXPECT_EQ(extrapolate(100, 50, 32, 32, 3072), 150);
  EXPECT_EQ(extrapolate(100, 300, 16, 32, 3072), 0);  // falling fast: clamped at 0
  EXPECT_EQ(extrapolate(3000, 2000, 16, 32, 3072), 3072);
}

TEST(SelfTune, CountFieldTooNarrowForTheNetworkIsAConfigError) {
  try {  // 3,072 VC buffers need 12 bits
    simulate(test::config({"congestion.protocol=\"selftune\"", "congestion.selftune_count_bits=11"}, kTorus16));
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "congestion.selftune_count_bits");
  }
}

TEST(DeadlockRecovery, AdaptiveRoutingNeedsRecovery) {
  try {
    simulate(test::config({"routing.algorithm=\"adaptive\""}, kTorus16));
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "routing.deadlock");
  }
}

TEST(DeadlockRecovery, FullyAdaptiveRoutingWithRecoveryDeliversAndRescuesBlockedPackets) {
  const std::vector<std::string> base = {"routing.algorithm=\"adaptive\"", "routing.deadlock=\"recovery\"",
                                         "topology.k=8", "sim.warmup=500", "sim.measure=3000"};
  auto with = [&](std::vector<std::string> extra) {
    extra.insert(extra.begin(), base.begin(), base.end());
    return test::run(extra, kTorus16);
  };
  auto low = with({"traffic.load=0.1", "sim.drain_cap=0"});
  EXPECT_FALSE(low["saturated"].get<bool>());
  EXPECT_NEAR(low["accepted_throughput"].get<double>(), 0.1, 0.01);
  auto high = with({"traffic.load=0.9"});
  EXPECT_FALSE(high["deadlock"].get<bool>());
  EXPECT_GT(high["deadlock_recovery"]["rescued_packets"].get<int64_t>(), 0);
  EXPECT_GT(high["accepted_throughput"].get<double>(), 0.05);
  // Recovery is what keeps such networks alive: with a timeout longer than the run nobody is
  // rescued and the 16-ary 2-cube deadlocks within ~2,000 cycles (the 8-ary one happens not to).
  auto never =
      with({"traffic.load=0.9", "routing.deadlock_timeout=16777216", "topology.k=16", "sim.deadlock_cycles=200"});
  EXPECT_EQ(never["deadlock_recovery"]["rescued_packets"].get<int64_t>(), 0);
  EXPECT_TRUE(never["deadlock"].get<bool>());
  // Deterministic, rescues included.
  auto again = with({"traffic.load=0.9"});
  EXPECT_EQ(high["deadlock_recovery"], again["deadlock_recovery"]);
  EXPECT_EQ(high["accepted_throughput"], again["accepted_throughput"]);
}

TEST(SelfTune, SameSeedGivesTheSameThresholdTrace) {
  const std::vector<std::string> sets = {"congestion.protocol=\"selftune\"", "traffic.load=0.5", "sim.warmup=500",
                                         "sim.measure=1500"};
  auto a = test::run(sets, kTorus16), b = test::run(sets, kTorus16);
  EXPECT_EQ(a["congestion"], b["congestion"]);
  EXPECT_GT(a["congestion"]["increments"].get<int64_t>(), 0);  // the tuner moved
}
