// Lock-step bench pieces for rtl/ccsim_last_hop_scheduler.sv vs tlm/blocks/last_hop_scheduler.h:
// constrained-random stimulus and the random lock-step run (the port binding, shared with RTL in
// the loop, is hw/port_last_hop_scheduler.h). Used by the tests (tb_last_hop_scheduler.cpp) and by `make waves`.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "hw/port_last_hop_scheduler.h"
#include "tb_common.h"

namespace ccsim::tb::lhs {

using blocks::LastHopScheduler;
using hw::lhs::compare;
using hw::lhs::drive;
using hw::lhs::lhs_config;

// Constrained random: each endpoint's queue level is steered towards a target that wanders
// around theta (sometimes far above it to saturate narrow counters, sometimes to 0 with
// over-large dequeues that must clamp); speculative heads and reservation requests on random
// lanes; time advances by 1 per cycle with occasional jumps (and wraps at 2^TimeWidth).
class LhsStimulus {
 public:
  LhsStimulus(const LastHopScheduler::Config& c, uint64_t seed) : c_(c), rng_(seed), target_(c.num_endpoints, 0) {
    time_mask_ = c.time_width >= 64 ? ~0ull : (1ull << c.time_width) - 1;
    now_ = rng_.next() & time_mask_ & 0xffff;
    flits_max_ = (1ull << c.flits_width) - 1;
    size_max_ = (1ull << c.size_width) - 1;
  }
  void next(uint64_t cycle, const LastHopScheduler& ref, LastHopScheduler::Inputs& in) {
    const uint64_t theta = static_cast<uint64_t>(c_.drop_threshold);
    const uint64_t count_max = (1ull << c_.count_width) - 1;
    for (int e = 0; e < c_.num_endpoints; ++e) {
      if (cycle % 997 == static_cast<uint64_t>(e) * 101 || rng_.chance(1, 3000)) {
        const uint64_t r = rng_.below(10);
        target_[e] = r == 0 ? 0 : r == 1 ? count_max + 20 : theta + rng_.range(0, 20) - std::min<uint64_t>(theta, 10);
      }
    }
    now_ = (now_ + (rng_.chance(1, 500) ? rng_.range(2, 5000) : 1)) & time_mask_;
    in.now = now_;
    for (int l = 0; l < c_.num_enq_ports; ++l) {
      const int e = static_cast<int>(rng_.below(c_.num_endpoints));
      in.enq_valid[l] = ref.queued(e) < target_[e] ? rng_.chance(1, 2) : rng_.chance(1, 20);
      in.enq_ep[l] = static_cast<uint32_t>(e);
      in.enq_flits[l] = static_cast<uint32_t>(rng_.range(0, flits_max_));
    }
    for (int l = 0; l < c_.num_deq_ports; ++l) {
      const int e = static_cast<int>(rng_.below(c_.num_endpoints));
      in.deq_valid[l] = ref.queued(e) > target_[e] ? rng_.chance(3, 4) : rng_.chance(1, 10);
      in.deq_ep[l] = static_cast<uint32_t>(e);
      in.deq_flits[l] = static_cast<uint32_t>(rng_.range(0, flits_max_));
    }
    for (int p = 0; p < c_.num_req_ports; ++p) {
      in.req_valid[p] = rng_.chance(1, 4);
      in.req_spec[p] = rng_.chance(4, 5);
      in.req_ep[p] = static_cast<uint32_t>(rng_.below(c_.num_endpoints));
      in.req_size[p] = static_cast<uint32_t>(rng_.chance(1, 20) ? rng_.range(0, size_max_)
                                                                : rng_.range(1, std::min<uint64_t>(24, size_max_)));
    }
  }

 private:
  LastHopScheduler::Config c_;
  Rng rng_;
  std::vector<uint64_t> target_;
  uint64_t time_mask_, now_, flits_max_, size_max_;
};

template <class M>
RunResult run_random(const std::string& params, uint64_t cycles, uint64_t seed, int mutation,
                     const std::string& vcd = "") {
  LastHopScheduler ref(lhs_config(Params(params)));
  ref.test_mutation = mutation;
  hw::VModel<M> dut(vcd);
  LhsStimulus stim(ref.config(), seed);
  Rng reset_rng(seed ^ 0x5eed);
  auto in = ref.make_inputs();
  auto out = ref.make_outputs();
  Mismatch mm;
  RunResult res;
  dut.reset();
  ref.reset();
  for (uint64_t cycle = 0; cycle < cycles; ++cycle) {
    if (reset_rng.chance(1, 50000)) {
      dut.reset();
      ref.reset();
    }
    if (reset_rng.chance(1, 5000) && !reset_between_edges(dut, ref, [&] {
          ref.eval(in, out);
          compare(dut.m(), ref, out, cycle, mm);
          return !mm.found();
        }))
      break;
    stim.next(cycle, ref, in);
    drive(dut.m(), ref, in);
    dut.eval();
    ref.eval(in, out);
    compare(dut.m(), ref, out, cycle, mm);
    if (mm.found()) break;
    const auto& c = ref.config();
    bool granted = false;
    for (int p = 0; p < c.num_req_ports; ++p) {
      res.events += out.drop[p];
      granted |= out.grant_valid[p] != 0;
    }
    res.cover["a drop"] += std::any_of(out.drop.begin(), out.drop.end(), [](uint8_t v) { return v != 0; });
    res.cover["a grant"] += granted;
    res.cover["queued count at its cap"] +=
        std::any_of(out.queued.begin(), out.queued.end(), [&](uint32_t q) { return q == field_mask(c.count_width); });
    dut.rise();
    ref.step(in);
    res.cycles = cycle + 1;
  }
  res.mismatch = mm.found();
  if (res.mismatch) res.message = mm.describe() + " (seed " + std::to_string(seed) + ", " + params + ")";
  return res;
}

}  // namespace ccsim::tb::lhs
