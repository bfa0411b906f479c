// Testbench: rtl/ccsim_token_throttler.sv against tlm/blocks/token_throttler.h.
// Paper: ../shared/papers/000_4abd1b2c8ca2b731.txt Sec. IV-B3 (Algorithm 1), IV-B4;
// spec A.5.6, A.5.7, A.8.4.
#include <gtest/gtest.h>

#include <vector>

#include "blocks/token_throttler.h"
#include "bench_token_throttler.h"
#include "tb_common.h"
#include "rtl_models.h"

namespace ccsim::tb {
namespace {

using blocks::TokenThrottler;
using namespace ccsim::tb::tt;  // NOLINT: bench helpers of this block

#define CCSIM_TT_RANDOM_TEST(Model, name, params)                                                                \
  TEST(TokenThrottlerRtl, MatchesReferenceEveryCycle_##name) {                                                   \
    const uint64_t seed = test_seed(#name);                                                                      \
    uint64_t unthrottles = 0;                                                                                    \
    const RunResult r = run_random<Model>(params, random_cycles(), seed, 0, "", &unthrottles);                   \
    EXPECT_FALSE(r.mismatch) << r.message;                                                                       \
    EXPECT_EQ(r.cycles, random_cycles());                                                                        \
    EXPECT_GT(unthrottles, 0u) << "stimulus never triggered an unthrottle";                                      \
    EXPECT_GT(r.events, 0u) << "stimulus never overflowed the table";                                            \
    for (const auto& [point, hits] : r.cover) {                                                                  \
      /* a 32-bit counter cannot reach its cap in a run */                                                       \
      const bool reachable = point != "token counter at its cap" || tt_config(Params(params)).token_width <= 16; \
      if (reachable) {                                                                                           \
        EXPECT_GT(hits, 0u) << "cover point never hit: " << point;                                               \
      }                                                                                                          \
    }                                                                                                            \
    RecordProperty("cycles", std::to_string(r.cycles));                                                          \
    std::printf("[ tt %s ] %llu cycles compared, seed %llu, %llu unthrottles, %llu overflows\n", #name,          \
                static_cast<unsigned long long>(r.cycles), static_cast<unsigned long long>(seed),                \
                static_cast<unsigned long long>(unthrottles), static_cast<unsigned long long>(r.events));        \
    for (const auto& [point, hits] : r.cover)                                                                    \
      std::printf("[ tt %s ] cover \"%s\": %llu cycles\n", #name, point.c_str(),                                 \
                  static_cast<unsigned long long>(hits));                                                        \
  }
CCSIM_TB_TT_MODELS(CCSIM_TT_RANDOM_TEST)

TEST(TokenThrottlerRtl, MutatedReferenceIsDetected) {
  const RunResult r =
      run_random<Vtt_t4>("NumEntries=4,DestWidth=4,DtWidth=4,SizeWidth=4,TokenWidth=9,SrcEpoch=60", 200000, 7,
                         /*mutation=*/1);
  ASSERT_TRUE(r.mismatch) << "a wrong reference was not detected";
  EXPECT_NE(r.message.find("expected"), std::string::npos);
  std::printf("[ tt mutation ] detected: %s\n", r.message.c_str());
}

// Lock-step harness for the directed Algorithm 1 sequences (16 entries, 1056-node ids,
// SrcEpoch = 1000 cycles). Every cycle the RTL outputs are compared with the reference.
class TtLockstep {
 public:
  TtLockstep()
      : ref_(tt_config(Params("NumEntries=16,SrcEpoch=1000,NumQueryPorts=2,NumGenPorts=2,NumFullPorts=2"))),
        in_(ref_.make_inputs()),
        out_(ref_.make_outputs()) {
    dut_.reset();
  }
  TokenThrottler::Inputs& in() { return in_; }
  const TokenThrottler::Outputs& out() const { return out_; }
  const TokenThrottler& ref() const { return ref_; }
  // Settle this cycle's inputs and compare (outputs in out()).
  void settle() {
    drive(dut_.m(), ref_, in_);
    dut_.eval();
    ref_.eval(in_, out_);
    compare(dut_.m(), ref_, out_, cycle_, mm_);
  }
  void edge() {
    dut_.rise();
    ref_.step(in_);
    in_ = ref_.make_inputs();
    ++cycle_;
  }
  void cycle() {
    settle();
    edge();
  }
  uint64_t now() const { return cycle_; }
  void expect_no_mismatch() { EXPECT_FALSE(mm_.found()) << mm_.describe(); }

 private:
  TokenThrottler ref_;
  hw::VModel<Vtt_t16> dut_;
  TokenThrottler::Inputs in_;
  TokenThrottler::Outputs out_;
  Mismatch mm_;
  uint64_t cycle_ = 0;
};

// Algorithm 1: t_i reset to 0 on THROTTLE, +1/D_t per cycle, a packet of S flits needs S
// tokens and consumes them. With D_t = 3 and S = 4 the first packet leaves exactly 12 cycles
// after the throttle receipt, then one every 12 cycles: 1/D_t flits/cycle.
TEST(TokenThrottlerRtl, Algorithm1TokenArithmetic) {
  TtLockstep t;
  const uint32_t dest = 777, dt = 3, size = 4;
  for (int c = 0; c < 10; ++c) t.cycle();
  const uint64_t t0 = t.now();
  t.in().throttle_valid = 1;
  t.in().throttle_dest = dest;
  t.in().throttle_dt = dt;
  t.in().query_dest[0] = dest;
  t.in().query_size[0] = size;
  t.settle();
  EXPECT_FALSE(t.out().query_eligible[0]);  // reset happens before the injection check
  EXPECT_TRUE(t.out().query_throttled[0]);
  t.edge();
  std::vector<uint64_t> sent_at;
  uint64_t flits = 0;
  while (t.now() < t0 + 990) {
    t.in().query_dest[0] = dest;
    t.in().query_size[0] = size;
    t.in().query_dest[1] = 5;  // an unthrottled destination is never held back
    t.in().query_size[1] = size;
    if ((t.now() - t0) % 6 == 0) {  // generation above 1/D_t keeps the throttle
      t.in().gen_valid[0] = 1;
      t.in().gen_dest[0] = dest;
      t.in().gen_size[0] = size;
    }
    t.settle();
    EXPECT_TRUE(t.out().query_eligible[1]);
    if (t.out().query_eligible[0]) {
      t.in().inject_valid = 1;
      t.in().inject_dest = dest;
      t.in().inject_size = size;
      t.settle();
      EXPECT_TRUE(t.out().inject_ok);
      sent_at.push_back(t.now() - t0);
      flits += size;
    }
    // Never more than (now - t0) / D_t flits since the throttle receipt (spec C.4).
    EXPECT_LE(flits * dt, t.now() - t0);
    t.edge();
  }
  ASSERT_GE(sent_at.size(), 3u);
  EXPECT_EQ(sent_at[0], size * dt);
  EXPECT_EQ(sent_at[1], 2 * size * dt);
  EXPECT_EQ(sent_at[2], 3 * size * dt);
  EXPECT_EQ(sent_at.size(), (990 - 1) / (size * dt));
  t.expect_no_mismatch();
}

// A new THROTTLE resets the tokens (line 7), also when many have accumulated.
TEST(TokenThrottlerRtl, ThrottleResetsAccumulatedTokens) {
  TtLockstep t;
  const uint32_t dest = 42;
  t.in().throttle_valid = 1;
  t.in().throttle_dest = dest;
  t.in().throttle_dt = 3;
  t.cycle();
  for (int c = 0; c < 300; ++c) t.cycle();  // 300 cycles idle: c = 301 (100 tokens)
  EXPECT_EQ(t.ref().tokens_scaled(dest), 301u);
  t.in().throttle_valid = 1;
  t.in().throttle_dest = dest;
  t.in().throttle_dt = 2;
  t.cycle();
  EXPECT_EQ(t.ref().throttling_degree(dest), 2u);
  for (int c = 1; c <= 8; ++c) {
    t.in().query_dest[0] = dest;
    t.in().query_size[0] = 4;
    t.settle();
    EXPECT_EQ(t.out().query_eligible[0] != 0, c == 8) << "cycle " << c << " after re-throttle";
    t.edge();
  }
  t.expect_no_mismatch();
}

// IV-B4: generation rate below 1/D_t over an epoch, queue never full -> unthrottle (pulse in
// the cycle after the epoch, entry freed); a full queue in the epoch postpones it by an epoch.
TEST(TokenThrottlerRtl, UnthrottleAfterEpochWithLowGenerationRate) {
  for (const bool full_once : {false, true}) {
    TtLockstep t;
    const uint32_t dest = 1000, dt = 4;
    t.in().throttle_valid = 1;
    t.in().throttle_dest = dest;
    t.in().throttle_dt = dt;
    t.cycle();
    const uint64_t t0 = t.now() - 1;
    uint64_t pulse_at = 0;
    while (t.now() < t0 + 2500 && pulse_at == 0) {
      if ((t.now() - t0) % 20 == 0) {  // 4 flits / 20 cycles = 0.2 < 1/4
        t.in().gen_valid[1] = 1;
        t.in().gen_dest[1] = dest;
        t.in().gen_size[1] = 4;
      }
      if (full_once && t.now() == t0 + 500) {
        t.in().full_valid[1] = 1;
        t.in().full_dest[1] = dest;
      }
      t.settle();
      for (int i = 0; i < 16; ++i) {
        if (t.out().unthrottle[i]) {
          EXPECT_EQ(t.out().entry_dest[i], dest);
          pulse_at = t.now() - t0;
        }
      }
      t.edge();
    }
    EXPECT_EQ(pulse_at, full_once ? 2001u : 1001u);
    EXPECT_FALSE(t.ref().is_throttled(dest));
    EXPECT_TRUE(t.ref().can_inject(dest, 24));
    t.expect_no_mismatch();
  }
}

TEST(TokenThrottlerRtl, NoUnthrottleWhileGenerationRateAtLeastOneOverDt) {
  TtLockstep t;
  const uint32_t dest = 9, dt = 4;
  t.in().throttle_valid = 1;
  t.in().throttle_dest = dest;
  t.in().throttle_dt = dt;
  t.cycle();
  for (int c = 0; c < 3500; ++c) {
    if (c % 15 == 0) {  // 4 flits / 15 cycles > 1/D_t = 1/4: keep throttling
      t.in().gen_valid[0] = 1;
      t.in().gen_dest[0] = dest;
      t.in().gen_size[0] = 4;
    }
    t.settle();
    for (int i = 0; i < 16; ++i) ASSERT_FALSE(t.out().unthrottle[i]) << "cycle " << c;
    t.edge();
  }
  EXPECT_TRUE(t.ref().is_throttled(dest));
  t.expect_no_mismatch();
}

TEST(TokenThrottlerRtl, SpeedPerClock) {
  const uint64_t n = 50000;
  const std::string params = "NumEntries=16,SrcEpoch=1000,NumQueryPorts=2,NumGenPorts=2,NumFullPorts=2";
  TokenThrottler ref(tt_config(Params(params)));
  TtStimulus stim(ref.config(), 1);
  std::vector<TokenThrottler::Inputs> ins(256, ref.make_inputs());
  for (size_t i = 0; i < ins.size(); ++i) stim.next(i, ins[i]);
  const double ref_ns = time_per_call_ns(n, [&](uint64_t c) { ref.step(ins[c & 255]); });
  hw::VModel<Vtt_t16> dut;
  dut.reset();
  const double rtl_ns = time_per_call_ns(n, [&](uint64_t c) {
    drive(dut.m(), ref, ins[c & 255]);
    dut.eval();
    dut.rise();
  });
  std::printf("[ speed ] token_throttler 16 entries: reference %.1f ns/clock, verilated RTL %.1f ns/clock\n", ref_ns,
              rtl_ns);
  RecordProperty("reference_ns_per_clock", std::to_string(ref_ns));
  RecordProperty("rtl_ns_per_clock", std::to_string(rtl_ns));
}

}  // namespace
}  // namespace ccsim::tb
