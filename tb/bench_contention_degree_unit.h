// Lock-step bench pieces for rtl/ccsim_contention_degree_unit.sv vs tlm/blocks/contention_degree_unit.h: reference
// configuration from the RTL parameter string, port driving, output comparison, constrained-random stimulus and the
// random lock-step run. Used by the tests (tb_contention_degree_unit.cpp) and by `make waves`.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "blocks/contention_degree_unit.h"
#include "tb_common.h"

namespace ccsim::tb::cdu {

using blocks::ContentionDegreeUnit;
using blocks::RequestSelector;

inline ContentionDegreeUnit::Config cdu_config(const Params& p) {
  ContentionDegreeUnit::Config c;
  c.radix = static_cast<int>(p.get("Radix", c.radix));
  c.num_inputs = static_cast<int>(p.get("NumInputs", c.radix));
  c.num_samples = static_cast<int>(p.get("NumSamples", c.num_samples));
  c.bound_sample_interval = static_cast<int>(p.get("BoundSampleInterval", c.bound_sample_interval));
  c.num_bound_samples = static_cast<int>(p.get("NumBoundSamples", c.num_bound_samples));
  c.metric_threshold = static_cast<int>(p.get("MetricThreshold", c.metric_threshold));
  return c;
}

template <class M>
void drive(M& m, const ContentionDegreeUnit& ref, const ContentionDegreeUnit::Inputs& in) {
  const int dw = ref.degree_width();
  for (int o = 0; o < ref.radix(); ++o) set_bits(m.dcr_i, o * dw, dw, in.dcr[o]);
}

template <class M>
void compare(M& m, const ContentionDegreeUnit& ref, const ContentionDegreeUnit::Outputs& out, uint64_t cycle,
             Mismatch& mm) {
  const int sw = ref.sum_width(), bw = ref.bound_sum_width();
  for (int o = 0; o < ref.radix() && !mm.found(); ++o) {
    mm.eq(cycle, "congested_o", o, out.congested[o], get_bits(m.congested_o, o, 1));
    mm.eq(cycle, "sum_dcr_o", o, out.sum_dcr[o], get_bits(m.sum_dcr_o, o * sw, sw));
    mm.eq(cycle, "sum_max_o", o, out.sum_max[o], get_bits(m.sum_max_o, o * bw, bw));
    mm.eq(cycle, "sum_min_o", o, out.sum_min[o], get_bits(m.sum_min_o, o * bw, bw));
  }
}

// Constrained-random D_cr: every output follows a regime (constant, alternating, narrow
// uniform around the threshold, sparse spikes, full range) for 20..600 cycles, so the metric
// crosses the congestion threshold often in both directions.
class CduStimulus {
 public:
  CduStimulus(const ContentionDegreeUnit::Config& c, uint64_t seed) : cfg_(c), rng_(seed), regime_(c.radix) {}
  void next(uint64_t cycle, ContentionDegreeUnit::Inputs& in) {
    const uint64_t max = static_cast<uint64_t>(cfg_.num_inputs);
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
};

template <class M>
RunResult run_random(const std::string& params, uint64_t cycles, uint64_t seed, int mutation,
                     const std::string& vcd = "") {
  const Params p(params);
  ContentionDegreeUnit ref(cdu_config(p));
  ref.test_mutation = mutation;
  Dut<M> dut(vcd);
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
    stim.next(cycle, in);
    drive(dut.m(), ref, in);
    dut.eval();
    ref.eval(out);
    compare(dut.m(), ref, out, cycle, mm);
    if (mm.found()) break;
    for (int o = 0; o < ref.radix(); ++o) congested_cycles += out.congested[o];
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
