// Port binding of rtl/ccsim_contention_degree_unit.sv to its reference tlm/blocks/contention_degree_unit.h: the
// reference's configuration from the RTL parameter string, driving the model's inputs, comparing
// its outputs. Shared by RTL in the loop (hw/) and the testbench (tb/).
#pragma once

#include "blocks/contention_degree_unit.h"
#include "hw/mismatch.h"
#include "hw/rtl_params.h"
#include "hw/vl_fields.h"

namespace ccsim::hw::cdu {

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

}  // namespace ccsim::hw::cdu
