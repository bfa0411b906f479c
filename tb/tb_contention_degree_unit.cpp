// Testbench: rtl/ccsim_contention_degree_unit.sv against tlm/blocks/contention_degree_unit.h.
// Paper: ../shared/papers/000_4abd1b2c8ca2b731.txt Sec. IV-B1 (Fig. 7, metric), spec A.5.2/A.5.3.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "blocks/contention_degree_unit.h"
#include "bench_contention_degree_unit.h"
#include "tb_common.h"
#include "rtl_models.h"

namespace ccsim::tb {
namespace {

using blocks::ContentionDegreeUnit;
using blocks::RequestSelector;
using namespace ccsim::tb::cdu;  // NOLINT: bench helpers of this block

#define CCSIM_CDU_RANDOM_TEST(Model, name, params)                                                 \
  TEST(ContentionDegreeUnitRtl, MatchesReferenceEveryCycle_##name) {                               \
    const uint64_t seed = test_seed(#name);                                                        \
    const RunResult r = run_random<Model>(params, random_cycles(), seed, 0);                       \
    EXPECT_FALSE(r.mismatch) << r.message;                                                         \
    EXPECT_EQ(r.cycles, random_cycles());                                                          \
    EXPECT_GT(r.events, 0u) << "stimulus never made an output congested";                          \
    EXPECT_EQ(unhit_cover(r), "") << "cover points never hit";                                     \
    print_cover(std::string("cdu ") + #name, r);                                                   \
    RecordProperty("cycles", std::to_string(r.cycles));                                            \
    std::printf("[ cdu %s ] %llu cycles compared, seed %llu, %llu congested port-cycles\n", #name, \
                static_cast<unsigned long long>(r.cycles), static_cast<unsigned long long>(seed),  \
                static_cast<unsigned long long>(r.events));                                        \
  }
CCSIM_TB_CDU_MODELS(CCSIM_CDU_RANDOM_TEST)

// The check can fail: a reference with a deliberately wrong comparison (>= instead of >) must
// be caught, with cycle, signal, expected and actual in the message.
TEST(ContentionDegreeUnitRtl, MutatedReferenceIsDetected) {
  const RunResult r = run_random<Vcdu_r15>("Radix=15", 200000, 12345, /*mutation=*/1);
  ASSERT_TRUE(r.mismatch) << "a wrong reference was not detected";
  EXPECT_NE(r.message.find("cycle "), std::string::npos);
  EXPECT_NE(r.message.find("congested_o["), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("expected"), std::string::npos);
  EXPECT_NE(r.message.find("actual"), std::string::npos);
  std::printf("[ cdu mutation ] detected: %s\n", r.message.c_str());
}

// Drive the same D_cr sequence into every output of the RTL and the reference, compare every
// cycle, and return congested(0) after `cycles` cycles.
bool steady_state_congested(const std::vector<uint8_t>& pattern, int cycles) {
  ContentionDegreeUnit ref(cdu_config(Params("Radix=15")));
  hw::VModel<Vcdu_r15> dut;
  auto in = ref.make_inputs();
  auto out = ref.make_outputs();
  Mismatch mm;
  dut.reset();
  for (int c = 0; c < cycles; ++c) {
    std::fill(in.dcr.begin(), in.dcr.end(), pattern[c % pattern.size()]);
    drive(dut.m(), ref, in);
    dut.eval();
    ref.eval(out);
    compare(dut.m(), ref, out, c, mm);
    dut.rise();
    ref.step(in);
  }
  dut.eval();
  ref.eval(out);
  compare(dut.m(), ref, out, cycles, mm);
  EXPECT_FALSE(mm.found()) << mm.describe();
  return out.congested[0] != 0;
}

// The RTL's assertions run in every verilated model (--assert): an input the block's header
// rules out (more contending inputs than NumInputs) ends the run with one line naming the
// model and the cycle, not a silently wrong metric.
TEST(ContentionDegreeUnitRtl, AnIllegalInputFailsItsAssertionNamingTheCycle) {
  // 9 inputs: D_cr takes 4 bits, so 10..15 reach the block.
  ContentionDegreeUnit ref(cdu_config(
      Params("Radix=6,NumInputs=9,NumSamples=25,BoundSampleInterval=3,NumBoundSamples=7,MetricThreshold=2")));
  hw::VModel<Vcdu_odd> dut;
  auto in = ref.make_inputs();
  dut.reset();
  for (int c = 0; c < 5; ++c) {
    drive(dut.m(), ref, in);
    dut.eval();
    dut.rise();
  }
  in.dcr[3] = 10;  // the inputs of cycle 6 (the reset's edge was cycle 0)
  drive(dut.m(), ref, in);
  try {
    dut.eval();
    FAIL() << "no assertion failed";
  } catch (const hw::RtlAssertionFailure& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("RTL assertion failed in Vcdu_odd at cycle 6"), std::string::npos) << what;
    EXPECT_NE(what.find("ccsim_contention_degree_unit.sv:"), std::string::npos) << what;
  }
}

// Spec A.5.3 test vectors (N = 100, B = 10, M = 10, windows full).
TEST(ContentionDegreeUnitRtl, MetricTestVectors) {
  EXPECT_FALSE(steady_state_congested({0}, 300));     // metric 0
  EXPECT_FALSE(steady_state_congested({1}, 300));     // metric 1: not > 1
  EXPECT_TRUE(steady_state_congested({2}, 300));      // metric 2
  EXPECT_FALSE(steady_state_congested({0, 2}, 300));  // 1 - (2-0)/2 = 0
  EXPECT_FALSE(steady_state_congested({1, 3}, 300));  // 2 - 1 = 1 (boundary)
  EXPECT_TRUE(steady_state_congested({2, 3}, 300));   // 2.5 - 0.5 = 2
  EXPECT_TRUE(steady_state_congested({4}, 300));      // 4-to-1 hotspot
  // Windows not yet full: 40 cycles of 2 give SD = 80, SMax = SMin = 8 -> metric 0.8.
  EXPECT_FALSE(steady_state_congested({2}, 40));
  // 51 cycles of 2 (5 full intervals): SD = 102 -> metric 1.02 > 1.
  EXPECT_TRUE(steady_state_congested({2}, 51));
}

// Fig. 7 of the paper (weighted contention degree with weight normalization; the figure's
// image is not in the text, so the example is rebuilt from its caption): four inputs whose
// requesting VCs target outputs {0,1}, {0}, {0,2,2}, {0}. D_cw = 1/2+1+1/3+1 = 2.83 at output
// 0, 1/2 at output 1, 2/3 at output 2. The randomized D_cr (one LFSR pick per input per cycle)
// has the same moving average, and only output 0 is congested.
TEST(ContentionDegreeUnitRtl, Fig7WeightedVsRandomizedContentionDegree) {
  const std::vector<std::vector<int>> requests = {{0, 1}, {0}, {0, 2, 2}, {0}};
  double dcw[15];
  blocks::weighted_contention_degree(requests, 15, dcw);
  EXPECT_NEAR(dcw[0], 1.0 / 2 + 1 + 1.0 / 3 + 1, 1e-12);
  EXPECT_NEAR(dcw[1], 0.5, 1e-12);
  EXPECT_NEAR(dcw[2], 2.0 / 3, 1e-12);

  ContentionDegreeUnit ref(cdu_config(Params("Radix=15")));
  hw::VModel<Vcdu_r15> dut;
  RequestSelector select(4, 7);
  auto in = ref.make_inputs();
  auto out = ref.make_outputs();
  Mismatch mm;
  dut.reset();
  const int cycles = 20000;
  std::vector<double> mean(3, 0.0);
  for (int c = 0; c < cycles; ++c) {
    std::fill(in.dcr.begin(), in.dcr.end(), 0);
    for (size_t i = 0; i < requests.size(); ++i) {
      const int v = static_cast<int>(requests[i].size());
      ++in.dcr[requests[i][select.select(static_cast<int>(i), v)]];
    }
    select.step();
    for (int o = 0; o < 3; ++o) mean[o] += in.dcr[o];
    drive(dut.m(), ref, in);
    dut.eval();
    ref.eval(out);
    compare(dut.m(), ref, out, c, mm);
    dut.rise();
    ref.step(in);
    if (c >= 200) {
      ASSERT_TRUE(ref.congested(0)) << "cycle " << c;
      ASSERT_FALSE(ref.congested(1)) << "cycle " << c;
      ASSERT_FALSE(ref.congested(2)) << "cycle " << c;
    }
  }
  EXPECT_FALSE(mm.found()) << mm.describe();
  for (int o = 0; o < 3; ++o) EXPECT_NEAR(mean[o] / cycles, dcw[o], 0.03) << "output " << o;
}

// Reference-only shortcut for idle routers: skip_idle(k) must equal k steps of all-zero D_cr
// (the stepped reference is the one verified against the RTL above), also right after a reset
// with stale FIFO contents and with B > N.
TEST(ContentionDegreeUnitReference, SkipIdleEqualsSteppingZeros) {
  for (const std::string params :
       {"Radix=15", "Radix=6,NumInputs=9,NumSamples=25,BoundSampleInterval=3,NumBoundSamples=7",
        "Radix=4,NumSamples=5,BoundSampleInterval=8,NumBoundSamples=3"}) {
    Rng rng(test_seed(params));
    for (int trial = 0; trial < 200; ++trial) {
      ContentionDegreeUnit a(cdu_config(Params(params)));
      CduStimulus stim(a.config(), rng.next());
      auto in = a.make_inputs();
      auto oa = a.make_outputs(), ob = a.make_outputs();
      const uint64_t busy = rng.range(0, 400);
      for (uint64_t c = 0; c < busy; ++c) {
        stim.next(c, in);
        a.step(in);
      }
      if (rng.chance(1, 2)) a.reset();  // stale memory behind the pointers
      std::fill(in.dcr.begin(), in.dcr.end(), 0);
      for (int c = 0; c < 1000 && !a.idle(); ++c) a.step(in);
      ASSERT_TRUE(a.idle());
      ContentionDegreeUnit b = a;
      const uint64_t k = rng.chance(1, 4) ? rng.range(0, 5) : rng.range(1, 3000);
      a.skip_idle(k);
      for (uint64_t c = 0; c < k; ++c) b.step(in);
      for (uint64_t c = 0; c < 400; ++c) {
        a.eval(oa);
        b.eval(ob);
        ASSERT_EQ(oa.sum_dcr, ob.sum_dcr) << params << " trial " << trial << " cycle " << c;
        ASSERT_EQ(oa.sum_max, ob.sum_max) << params << " trial " << trial << " cycle " << c;
        ASSERT_EQ(oa.sum_min, ob.sum_min) << params << " trial " << trial << " cycle " << c;
        ASSERT_EQ(oa.congested, ob.congested) << params << " trial " << trial << " cycle " << c;
        stim.next(busy + c, in);
        a.step(in);
        b.step(in);
      }
    }
  }
}

// Reference vs RTL cost per clock (Release build), printed for the report.
TEST(ContentionDegreeUnitRtl, SpeedPerClock) {
  const uint64_t n = 50000;
  ContentionDegreeUnit ref(cdu_config(Params("Radix=15")));
  CduStimulus stim(ref.config(), 1);
  std::vector<ContentionDegreeUnit::Inputs> ins(256, ref.make_inputs());
  for (size_t i = 0; i < ins.size(); ++i) stim.next(i, ins[i]);
  const double ref_ns = time_per_call_ns(n, [&](uint64_t c) { ref.step(ins[c & 255]); });
  hw::VModel<Vcdu_r15> dut;
  dut.reset();
  const double rtl_ns = time_per_call_ns(n, [&](uint64_t c) {
    drive(dut.m(), ref, ins[c & 255]);
    dut.eval();
    dut.rise();
  });
  std::printf("[ speed ] contention_degree_unit radix 15: reference %.1f ns/clock, verilated RTL %.1f ns/clock\n",
              ref_ns, rtl_ns);
  RecordProperty("reference_ns_per_clock", std::to_string(ref_ns));
  RecordProperty("rtl_ns_per_clock", std::to_string(rtl_ns));
  EXPECT_LT(ref_ns, 1000.0);  // well under 1 us per router-cycle
}

}  // namespace
}  // namespace ccsim::tb
