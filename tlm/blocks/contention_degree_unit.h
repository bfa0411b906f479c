// ContentionDegreeUnit: bit-accurate C++ reference of rtl/ccsim_contention_degree_unit.sv, the CBCM
// per-router congestion detector (moving averages of the randomized contention degree D_cr).
//
// Paper: ../shared/papers/000_4abd1b2c8ca2b731.txt, Sec. IV-B1 (D_cw, D_cr, moving averages,
// metric = MA(D_cr) - (MA(max D_cr) - MA(min D_cr))/2, congested when metric > 1), Sec. V-D.
// Spec:  ../shared/specs/cbcm-srp-smsrp-lhrp-ecn.md A.5.2, A.5.3, A.8.1, A.8.2.
//
// One object per router covers all `radix` output ports. Per cycle the router feeds the D_cr
// vector (step); congested(o) then reflects all samples up to and including that cycle, i.e. a
// sample of cycle t marks packets from cycle t+1 on (one register stage, as the RTL).
// The metric is evaluated exactly in integers:  2*M*SD > N*(SMax - SMin) + 2*M*N*threshold.
//
// Also here (C++ only, no RTL): RequestSelector, the per-input random pick of one requesting VC
// that turns request lists into D_cr (A.5.2), and weighted_contention_degree (D_cw, Fig. 7).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ccsim::blocks {

class ContentionDegreeUnit {
 public:
  // Parameters; the same names as the RTL parameters. Paper values: num_samples = 100,
  // bound_sample_interval = 10, num_bound_samples = 10, metric_threshold = 1.
  struct Config {
    int radix = 64;                  // output ports covered (RTL Radix)
    int num_inputs = -1;             // input ports, D_cr <= num_inputs; -1 = radix (ours)
    int num_samples = 100;           // N: samples in MA(D_cr)                       [paper]
    int bound_sample_interval = 10;  // B: cycles per max/min interval               [paper]
    int num_bound_samples = 10;      // M: interval samples in MA(max), MA(min)       [paper]
    int metric_threshold = 1;        // congested when metric > this                  [paper]
  };

  // Cycle-level interface (mirrors the RTL ports).
  struct Inputs {
    std::vector<uint8_t> dcr;  // D_cr of every output this cycle (RTL dcr_i)
  };
  struct Outputs {
    std::vector<uint8_t> congested;  // RTL congested_o
    std::vector<uint32_t> sum_dcr;   // RTL sum_dcr_o  (SD)
    std::vector<uint32_t> sum_max;   // RTL sum_max_o  (SMax)
    std::vector<uint32_t> sum_min;   // RTL sum_min_o  (SMin)
  };

  ContentionDegreeUnit();  // paper/default parameters
  explicit ContentionDegreeUnit(const Config& config);

  const Config& config() const { return cfg_; }
  int radix() const { return cfg_.radix; }
  // RTL widths: DegreeWidth, SumWidth, BoundSumWidth.
  int degree_width() const { return degree_width_; }
  int sum_width() const { return sum_width_; }
  int bound_sum_width() const { return bound_sum_width_; }

  Inputs make_inputs() const;
  Outputs make_outputs() const;
  void reset();
  // Outputs of the current cycle (they depend on registered state only).
  void eval(Outputs& out) const;
  // Rising clock edge with this cycle's inputs.
  void step(const Inputs& in) { step(in.dcr.data()); }

  // ---- Network-model interface (hot path: no allocation).
  // Feed this cycle's D_cr vector (radix entries, each <= num_inputs) and advance one cycle.
  void step(const uint8_t* dcr);
  // Output o has sustained contention (mark packets going through it).
  bool congested(int o) const { return congested_[o] != 0; }
  const uint8_t* congested_vector() const { return congested_.data(); }
  uint32_t sum_dcr(int o) const { return sum_dcr_[o]; }
  uint32_t sum_max(int o) const { return sum_max_[o]; }
  uint32_t sum_min(int o) const { return sum_min_[o]; }
  // metric(o) as a double, for statistics only (the decision uses the exact integer form).
  double metric(int o) const;
  // Idle: every moving sum and interval max is zero, so the unit holds only zero samples.
  // Then skip_idle(k) equals k calls of step() with all-zero D_cr in O(1) (O(state) once after
  // a reset), so an idle router costs nothing per cycle. Precondition: idle().
  bool idle() const { return active_ports_ == 0; }
  void skip_idle(uint64_t cycles);

  // Test-only hook: nonzero perturbs the metric comparison (>= instead of >), so that
  // tb/ can show the RTL-vs-reference comparison detects a wrong reference.
  int test_mutation = 0;

 private:
  bool metric_exceeds(int o) const;

  Config cfg_;
  int degree_width_, sum_width_, bound_sum_width_;
  // FIFOs as in the RTL memories: sample_mem_[ptr * radix + o].
  std::vector<uint8_t> sample_mem_;
  std::vector<uint8_t> bound_max_mem_, bound_min_mem_;
  std::vector<uint8_t> cur_max_, cur_min_;
  std::vector<uint32_t> sum_dcr_, sum_max_, sum_min_;
  std::vector<uint8_t> congested_;
  std::vector<uint8_t> active_;  // port has a nonzero sum or interval max
  int active_ports_ = 0;
  int sample_ptr_ = 0, bound_ptr_ = 0, phase_ = 0;
  bool sample_full_ = false, bound_full_ = false;
  bool sample_tail_clean_ = false, bound_tail_clean_ = false;  // see skip_idle()
  uint64_t lhs_factor_ = 0, rhs_offset_ = 0;
};

// Randomized selection of one requesting VC per input port (A.5.2): a 16-bit Galois LFSR per
// input (x^16 + x^14 + x^13 + x^11 + 1), stepped once per cycle; pick = lfsr % v.
// C++ only (the RTL block takes D_cr); deterministic from the seed.
class RequestSelector {
 public:
  RequestSelector(int num_inputs, uint32_t seed);
  // Index in [0, v) of the request that input i contributes this cycle (v > 0).
  int select(int input, int v) const { return static_cast<int>(lfsr_[input] % static_cast<unsigned>(v)); }
  // Advance every input's LFSR by one cycle.
  void step();

 private:
  std::vector<uint16_t> lfsr_;
};

// Weighted contention degree D_cw (Fig. 7): requests[i] lists the outputs requested by the
// requesting VCs of input i (v = its length); each adds 1/v to its output. dcw must have
// room for num_outputs values. C++ only.
void weighted_contention_degree(const std::vector<std::vector<int>>& requests, int num_outputs, double* dcw);

}  // namespace ccsim::blocks
