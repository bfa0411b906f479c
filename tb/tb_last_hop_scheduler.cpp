// Testbench: rtl/ccsim_last_hop_scheduler.sv against tlm/blocks/last_hop_scheduler.h.
// Paper: ../shared/papers/003_4ae6273e4fa61935.txt Sec. 3.2, 6.3, 6.4; spec B.9, B.11.1.
#include <gtest/gtest.h>

#include <vector>

#include "blocks/last_hop_scheduler.h"
#include "bench_last_hop_scheduler.h"
#include "tb_common.h"
#include "rtl_models.h"

namespace ccsim::tb {
namespace {

using blocks::LastHopScheduler;
using namespace ccsim::tb::lhs;  // NOLINT: bench helpers of this block

#define CCSIM_LHS_RANDOM_TEST(Model, name, params)                                                \
  TEST(LastHopSchedulerRtl, MatchesReferenceEveryCycle_##name) {                                  \
    const uint64_t seed = test_seed(#name);                                                       \
    const RunResult r = run_random<Model>(params, random_cycles(), seed, 0);                      \
    EXPECT_FALSE(r.mismatch) << r.message;                                                        \
    EXPECT_EQ(r.cycles, random_cycles());                                                         \
    EXPECT_GT(r.events, 0u) << "stimulus never dropped a speculative packet";                     \
    /* 16-bit queue counters do not reach their cap in a run */                                   \
    EXPECT_EQ(unhit_cover(r, lhs_config(Params(params)).count_width <= 8                          \
                                 ? std::vector<std::string>{}                                     \
                                 : std::vector<std::string>{"queued count at its cap"}),          \
              "")                                                                                 \
        << "cover points never hit";                                                              \
    print_cover(std::string("lhs ") + #name, r);                                                  \
    RecordProperty("cycles", std::to_string(r.cycles));                                           \
    std::printf("[ lhs %s ] %llu cycles compared, seed %llu, %llu drops\n", #name,                \
                static_cast<unsigned long long>(r.cycles), static_cast<unsigned long long>(seed), \
                static_cast<unsigned long long>(r.events));                                       \
  }
CCSIM_TB_LHS_MODELS(CCSIM_LHS_RANDOM_TEST)

TEST(LastHopSchedulerRtl, MutatedReferenceIsDetected) {
  const RunResult r =
      run_random<Vlhs_p4>("NumEndpoints=4,NumReqPorts=15,NumEnqPorts=15,NumDeqPorts=4", 200000, 3, /*mutation=*/1);
  ASSERT_TRUE(r.mismatch) << "a wrong reference was not detected";
  EXPECT_NE(r.message.find("expected"), std::string::npos);
  std::printf("[ lhs mutation ] detected: %s\n", r.message.c_str());
}

// A reservation sequence on the LHRP switch (theta = 1000 flits, 4 endpoints), RTL and
// reference compared every cycle.
TEST(LastHopSchedulerRtl, ReservationSequence) {
  LastHopScheduler ref(lhs_config(Params("NumEndpoints=4,NumReqPorts=15,NumEnqPorts=15,NumDeqPorts=4")));
  hw::VModel<Vlhs_p4> dut;
  auto in = ref.make_inputs();
  auto out = ref.make_outputs();
  Mismatch mm;
  uint64_t cycle = 0;
  dut.reset();
  auto settle = [&] {
    in.now = 100 + cycle;
    drive(dut.m(), ref, in);
    dut.eval();
    ref.eval(in, out);
    compare(dut.m(), ref, out, cycle, mm);
  };
  auto edge = [&] {
    dut.rise();
    ref.step(in);
    in = ref.make_inputs();
    ++cycle;
  };
  auto enqueue = [&](int e, int flits) {  // spread over the 15 enqueue lanes (<= 31 each)
    for (int l = 0; l < 15 && flits > 0; ++l) {
      const int f = std::min(flits, 31);
      in.enq_valid[l] = 1;
      in.enq_ep[l] = static_cast<uint32_t>(e);
      in.enq_flits[l] = static_cast<uint32_t>(f);
      flits -= f;
    }
  };
  auto spec_head = [&](int lane, int e, int size) {
    in.req_valid[lane] = 1;
    in.req_spec[lane] = 1;
    in.req_ep[lane] = static_cast<uint32_t>(e);
    in.req_size[lane] = static_cast<uint32_t>(size);
  };
  // 999 flits queued for endpoint 1: a speculative head is still accepted.
  enqueue(1, 465);
  settle();
  edge();
  enqueue(1, 465);
  settle();
  edge();
  enqueue(1, 69);
  settle();
  edge();
  EXPECT_EQ(ref.queued(1), 999u);
  spec_head(0, 1, 4);
  enqueue(1, 1);
  settle();
  EXPECT_FALSE(out.drop[0]);
  EXPECT_FALSE(out.grant_valid[0]);
  edge();
  // 1000 flits: at the threshold ("reaches", Sec. 6.3) speculative heads are dropped and get
  // successive reservation slots in lane order; endpoint 0 is unaffected.
  EXPECT_EQ(ref.queued(1), 1000u);
  const uint64_t now = 100 + cycle;
  spec_head(2, 1, 4);
  spec_head(5, 1, 8);
  spec_head(7, 0, 4);
  settle();
  EXPECT_TRUE(out.drop[2]);
  EXPECT_EQ(out.grant_time[2], now);
  EXPECT_TRUE(out.drop[5]);
  EXPECT_EQ(out.grant_time[5], now + 4);
  EXPECT_FALSE(out.drop[7]);
  edge();
  EXPECT_EQ(ref.next_free(1), now + 12);
  // An SRP reservation (combined protocol) for endpoint 1 one cycle later queues behind them.
  in.req_valid[0] = 1;
  in.req_spec[0] = 0;
  in.req_ep[0] = 1;
  in.req_size[0] = 24;
  settle();
  EXPECT_FALSE(out.drop[0]);
  EXPECT_TRUE(out.grant_valid[0]);
  EXPECT_EQ(out.grant_time[0], now + 12);
  edge();
  EXPECT_EQ(ref.next_free(1), now + 36);
  // Ejection drains the queue below theta: speculative heads pass again.
  in.deq_valid[0] = 1;
  in.deq_ep[0] = 1;
  in.deq_flits[0] = 1;
  settle();
  edge();
  spec_head(3, 1, 4);
  settle();
  EXPECT_FALSE(out.drop[3]);
  edge();
  // Much later the register is in the past: the grant is `now`.
  for (int c = 0; c < 100; ++c) {
    settle();
    edge();
  }
  in.req_valid[1] = 1;
  in.req_spec[1] = 0;
  in.req_ep[1] = 1;
  in.req_size[1] = 2;
  settle();
  EXPECT_EQ(out.grant_time[1], 100 + cycle);
  edge();
  EXPECT_FALSE(mm.found()) << mm.describe();
}

// Convenience interface used by the network model.
TEST(LastHopSchedulerRtl, ReferenceConvenienceInterface) {
  LastHopScheduler lhs;  // paper parameters: theta = 1000
  lhs.enqueue(2, 1000);
  EXPECT_FALSE(lhs.should_drop(2));  // visible after the clock edge
  lhs.tick();
  EXPECT_TRUE(lhs.should_drop(2));
  auto d = lhs.speculative_head(2, 4, 50);
  EXPECT_TRUE(d.drop);
  EXPECT_EQ(d.grant_time, 50u);
  EXPECT_EQ(lhs.reserve(2, 10, 51), 54u);
  lhs.dequeue(2, 1);
  lhs.tick();
  EXPECT_FALSE(lhs.speculative_head(2, 4, 52).drop);
  EXPECT_EQ(lhs.next_free(2), 64u);
}

TEST(LastHopSchedulerRtl, SpeedPerClock) {
  const uint64_t n = 50000;
  const std::string params = "NumEndpoints=4,NumReqPorts=15,NumEnqPorts=15,NumDeqPorts=4";
  LastHopScheduler ref(lhs_config(Params(params)));
  LhsStimulus stim(ref.config(), 1);
  std::vector<LastHopScheduler::Inputs> ins(256, ref.make_inputs());
  for (size_t i = 0; i < ins.size(); ++i) stim.next(i, ref, ins[i]);
  const double ref_ns = time_per_call_ns(n, [&](uint64_t c) { ref.step(ins[c & 255]); });
  hw::VModel<Vlhs_p4> dut;
  dut.reset();
  const double rtl_ns = time_per_call_ns(n, [&](uint64_t c) {
    drive(dut.m(), ref, ins[c & 255]);
    dut.eval();
    dut.rise();
  });
  std::printf(
      "[ speed ] last_hop_scheduler 4 endpoints / 15 lanes: reference %.1f ns/clock, verilated RTL %.1f ns/clock\n",
      ref_ns, rtl_ns);
  RecordProperty("reference_ns_per_clock", std::to_string(ref_ns));
  RecordProperty("rtl_ns_per_clock", std::to_string(rtl_ns));
}

}  // namespace
}  // namespace ccsim::tb
