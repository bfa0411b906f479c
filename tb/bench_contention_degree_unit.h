// Lock-step bench pieces for rtl/ccsim_contention_degree_unit.sv vs tlm/blocks/contention_degree_unit.h:
// constrained-random stimulus and the random lock-step run (the port binding, shared with RTL in
// the loop, is hw/port_contention_degree_unit.h). Used by the tests (tb_contention_degree_unit.cpp) and by `make
// waves`.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "hw/port_contention_degree_unit.h"
#include "tb_common.h"

namespace ccsim::tb::cdu {

using blocks::ContentionDegreeUnit;
using blocks::RequestSelector;
using hw::cdu::cdu_config;
using hw::cdu::compare;
using hw::cdu::drive;

// Constrained-random D_cr: every output follows a regime (constant, alternating, narrow
// uniform around the threshold, sparse spikes, full range) for 20..600 cycles, so the metric
// crosses the congestion threshold often in both directions; rare storms congest every output.
class CduStimulus {
 public:
  CduStimulus(const ContentionDegreeUnit::Config& c, uint64_t seed) : cfg_(c), rng_(seed), regime_(c.radix) {}
  void next(uint64_t cycle, ContentionDegreeUnit::Inputs& in) {
    const uint64_t max = static_cast<uint64_t>(cfg_.num_inputs);
    // Now and then a storm: every output contended at once (D_cr from 3 up) for 300-1500 cycles.
    if (cycle >= storm_until_ && rng_.chance(1, 5000)) storm_until_ = cycle + rng_.range(300, 1500);
    const bool storm = cycle < storm_until_;
    for (int o = 0; o < cfg_.radix; ++o) {
      Regime& r = regime_[o];
      if (cycle >= r.until) {
        r.kind = static_cast<int>(rng_.below(5));
        r.a = std::min<uint64_t>(rng_.below(4), max);
        r.b = std::min<uint64_t>(rng_.below(5), max);
        if (rng_.chance(1, 8)) r.a = rng_.range(0, max);
        r.until = cycle + rng_.range(20, 600);
      }
      uint64_t d = 0;
      switch (r.kind) {
        case 0:
          d = r.a;
          break;  // constant
        case 1:
          d = (cycle & 1) ? r.a : r.b;
          break;  // alternating
        case 2:
          d = std::min<uint64_t>(rng_.range(1, 3), max);
          break;  // around threshold
        case 3:
          d = rng_.chance(1, 10) ? rng_.range(0, max) : 0;
          break;  // spikes
        default:
          d = rng_.range(0, max);
          break;  // full range
      }
      if (storm) d = std::max(d, rng_.range(std::min<uint64_t>(3, max), max));
      in.dcr[o] = static_cast<uint8_t>(d);
    }
  }

 private:
  struct Regime {
    int kind = 0;
    uint64_t a = 0, b = 0, until = 0;
  };
  ContentionDegreeUnit::Config cfg_;
  Rng rng_;
  std::vector<Regime> regime_;
  uint64_t storm_until_ = 0;
};

template <class M>
RunResult run_random(const std::string& params, uint64_t cycles, uint64_t seed, int mutation,
                     const std::string& vcd = "") {
  const Params p(params);
  ContentionDegreeUnit ref(cdu_config(p));
  ref.test_mutation = mutation;
  hw::VModel<M> dut(vcd);
  CduStimulus stim(ref.config(), seed);
  Rng reset_rng(seed ^ 0x5eed);
  auto in = ref.make_inputs();
  auto out = ref.make_outputs();
  Mismatch mm;
  RunResult res;
  dut.reset();
  ref.reset();
  uint64_t congested_cycles = 0;
  for (uint64_t cycle = 0; cycle < cycles; ++cycle) {
    if (reset_rng.chance(1, 50000)) {
      dut.reset();
      ref.reset();
    }
    if (reset_rng.chance(1, 5000) && !reset_between_edges(dut, ref, [&] {
          ref.eval(out);
          compare(dut.m(), ref, out, cycle, mm);
          return !mm.found();
        }))
      break;
    stim.next(cycle, in);
    drive(dut.m(), ref, in);
    dut.eval();
    ref.eval(out);
    compare(dut.m(), ref, out, cycle, mm);
    if (mm.found()) break;
    int congested_now = 0;
    for (int o = 0; o < ref.radix(); ++o) congested_now += out.congested[o];
    congested_cycles += static_cast<uint64_t>(congested_now);
    res.cover["an output congested"] += congested_now > 0;
    res.cover["every output congested"] += congested_now == ref.radix();
    dut.rise();
    ref.step(in);
    res.cycles = cycle + 1;
  }
  res.events = congested_cycles;
  res.mismatch = mm.found();
  if (res.mismatch) res.message = mm.describe() + " (seed " + std::to_string(seed) + ", " + params + ")";
  return res;
}

}  // namespace ccsim::tb::cdu
