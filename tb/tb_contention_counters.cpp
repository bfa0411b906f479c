// Testbench: rtl/ccsim_contention_counters.sv against tlm/blocks/contention_counters.h.
// Paper: ../shared/papers/002_2c774bb3d32a0357.txt Sec. III-B..D; spec B.3, B.5, B.8.
#include <gtest/gtest.h>

#include <vector>

#include "blocks/contention_counters.h"
#include "bench_contention_counters.h"
#include "tb_common.h"
#include "rtl_models.h"

namespace ccsim::tb {
namespace {

using blocks::ContentionCounters;
using namespace ccsim::tb::cc;  // NOLINT: bench helpers of this block

#define CCSIM_CC_RANDOM_TEST(Model, name, params)                                                 \
  TEST(ContentionCountersRtl, MatchesReferenceEveryCycle_##name) {                                \
    const uint64_t seed = test_seed(#name);                                                       \
    const RunResult r = run_random<Model>(params, random_cycles(), seed, 0);                      \
    EXPECT_FALSE(r.mismatch) << r.message;                                                        \
    EXPECT_EQ(r.cycles, random_cycles());                                                         \
    EXPECT_GT(r.events, 0u) << "stimulus never made a port contended";                            \
    EXPECT_EQ(unhit_cover(r), "") << "cover points never hit";                                    \
    print_cover(std::string("cc ") + #name, r);                                                   \
    RecordProperty("cycles", std::to_string(r.cycles));                                           \
    std::printf("[ cc %s ] %llu cycles compared, seed %llu, %llu contended port-cycles\n", #name, \
                static_cast<unsigned long long>(r.cycles), static_cast<unsigned long long>(seed), \
                static_cast<unsigned long long>(r.events));                                       \
  }
CCSIM_TB_CC_MODELS(CCSIM_CC_RANDOM_TEST)

TEST(ContentionCountersRtl, MutatedReferenceIsDetected) {
  const RunResult r =
      run_random<Vcc_r15>("NumPorts=15,NumGlobalLinks=32,NumGroupRouters=8,NumIncPorts=4,NumDecPorts=4", 200000, 99,
                          /*mutation=*/1);
  ASSERT_TRUE(r.mismatch) << "a wrong reference was not detected";
  EXPECT_NE(r.message.find("contended_o["), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("expected"), std::string::npos);
  std::printf("[ cc mutation ] detected: %s\n", r.message.c_str());
}

// Lock-step harness for directed sequences on the paper-sized model (radix 31, 128 links).
class CcLockstep {
 public:
  CcLockstep()
      : ref_(cc_config(Params("NumPorts=31,NumGlobalLinks=128,NumGroupRouters=16,NumIncPorts=6,"
                              "NumDecPorts=6,NumRxPorts=2"))),
        in_(ref_.make_inputs()),
        out_(ref_.make_outputs()) {
    dut_.reset();
  }
  ContentionCounters::Inputs& in() { return in_; }
  const ContentionCounters& ref() const { return ref_; }
  // One clock: compare, edge, clear the lanes.
  void cycle() {
    drive(dut_.m(), ref_, in_);
    dut_.eval();
    ref_.eval(out_);
    compare(dut_.m(), ref_, out_, cycle_, mm_);
    dut_.rise();
    ref_.step(in_);
    in_ = ref_.make_inputs();
    ++cycle_;
  }
  void check() {
    drive(dut_.m(), ref_, in_);
    dut_.eval();
    ref_.eval(out_);
    compare(dut_.m(), ref_, out_, cycle_, mm_);
    EXPECT_FALSE(mm_.found()) << mm_.describe();
  }
  uint64_t now() const { return cycle_; }

 private:
  ContentionCounters ref_;
  hw::VModel<Vcc_r31> dut_;
  ContentionCounters::Inputs in_;
  ContentionCounters::Outputs out_;
  Mismatch mm_;
  uint64_t cycle_ = 0;
};

// Base (III-B): 8 injection queues whose head packets all minimally target port 3 raise its
// counter to 8 >= th = 6 (the "th <= p" analysis of VI-A); tails leaving bring it back under.
TEST(ContentionCountersRtl, HeadsAtInputFrontsMakeMinimalOutputContended) {
  CcLockstep t;
  for (int l = 0; l < 6; ++l) {
    t.in().inc_valid[l] = 1;
    t.in().inc_port[l] = 3;
  }
  t.cycle();
  t.in().inc_valid[0] = t.in().inc_valid[1] = 1;
  t.in().inc_port[0] = t.in().inc_port[1] = 3;
  t.cycle();
  t.check();
  EXPECT_EQ(t.ref().count(3), 8);
  EXPECT_TRUE(t.ref().contended(3));
  EXPECT_FALSE(t.ref().contended(4));
  // Two tails leave: 6 is still >= th; one more: 5 < th.
  t.in().dec_valid[0] = t.in().dec_valid[1] = 1;
  t.in().dec_port[0] = t.in().dec_port[1] = 3;
  t.cycle();
  t.check();
  EXPECT_EQ(t.ref().count(3), 6);
  EXPECT_TRUE(t.ref().contended(3));
  t.in().dec_valid[0] = 1;
  t.in().dec_port[0] = 3;
  t.in().inc_valid[0] = 1;  // same cycle: one head in on port 9
  t.in().inc_port[0] = 9;
  t.cycle();
  t.check();
  EXPECT_EQ(t.ref().count(3), 5);
  EXPECT_FALSE(t.ref().contended(3));
  EXPECT_EQ(t.ref().count(9), 1);
}

// ECtN (III-D): broadcast every 100 cycles with 4-bit saturated values; the combined array is
// the own partial plus the last array received from every other router of the group.
TEST(ContentionCountersRtl, EctnBroadcastAndCombinedArray) {
  CcLockstep t;
  t.check();
  EXPECT_TRUE(t.ref().broadcast_due());  // cycle 0
  for (int k = 0; k < 20; k += 5) {      // 20 heads towards global link 7 over 4 cycles
    for (int l = 0; l < 5; ++l) {
      t.in().pinc_valid[l] = 1;
      t.in().pinc_link[l] = 7;
    }
    t.cycle();
  }
  EXPECT_EQ(t.ref().partial(7), 20);
  while (!t.ref().broadcast_due()) t.cycle();
  EXPECT_EQ(t.now(), 100u);
  uint8_t sent[128];
  t.ref().broadcast_partial(sent);
  EXPECT_EQ(sent[7], 15);  // saturated to 4 bits
  EXPECT_EQ(sent[6], 0);
  // Arrays from routers 0 and 3 arrive in the same cycle (two rx lanes).
  t.in().rx_valid[0] = t.in().rx_valid[1] = 1;
  t.in().rx_router[0] = 0;
  t.in().rx_router[1] = 3;
  t.in().rx_partial[7] = 4;
  t.in().rx_partial[128 + 7] = 6;
  t.in().rx_partial[128 + 9] = 11;
  t.cycle();
  t.check();
  EXPECT_EQ(t.ref().combined(7), 30);
  EXPECT_EQ(t.ref().combined(9), 11);
  EXPECT_TRUE(t.ref().combined_contended(7));
  EXPECT_TRUE(t.ref().combined_contended(9));
  // Router 3's next array overwrites its old one.
  t.in().rx_valid[0] = 1;
  t.in().rx_router[0] = 3;
  t.in().rx_partial[7] = 1;
  t.cycle();
  t.check();
  EXPECT_EQ(t.ref().combined(7), 25);
  EXPECT_EQ(t.ref().combined(9), 0);
  EXPECT_FALSE(t.ref().combined_contended(9));
}

TEST(ContentionCountersRtl, SpeedPerClock) {
  const uint64_t n = 50000;
  const std::string params = "NumPorts=15,NumGlobalLinks=32,NumGroupRouters=8,NumIncPorts=4,NumDecPorts=4";
  ContentionCounters ref(cc_config(Params(params)));
  CcStimulus stim(ref.config(), 1);
  std::vector<ContentionCounters::Inputs> ins(256, ref.make_inputs());
  for (size_t i = 0; i < ins.size(); ++i) stim.next(i, ins[i]);
  const double ref_ns = time_per_call_ns(n, [&](uint64_t c) { ref.step(ins[c & 255]); });
  hw::VModel<Vcc_r15> dut;
  dut.reset();
  const double rtl_ns = time_per_call_ns(n, [&](uint64_t c) {
    drive(dut.m(), ref, ins[c & 255]);
    dut.eval();
    dut.rise();
  });
  std::printf(
      "[ speed ] contention_counters radix 15 / 32 links: reference %.1f ns/clock, verilated RTL %.1f ns/clock\n",
      ref_ns, rtl_ns);
  RecordProperty("reference_ns_per_clock", std::to_string(ref_ns));
  RecordProperty("rtl_ns_per_clock", std::to_string(rtl_ns));
}

}  // namespace
}  // namespace ccsim::tb
