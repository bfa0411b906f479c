// RTL in the loop: rtl/ccsim_contention_degree_unit.sv (verilated) behind hw::ContentionDegree.
#include <fmt/format.h>

#include <numeric>

#include "hw/port_contention_degree_unit.h"
#include "hw/rtl_blocks.h"
#include "hw/rtl_support.h"
#include "hw/vmodel.h"
#include "rtl_models.h"

namespace ccsim::hw {

namespace {

using Cfg = blocks::ContentionDegreeUnit::Config;

std::string render(const Cfg& c) {
  return fmt::format("Radix={},NumInputs={},NumSamples={},BoundSampleInterval={},NumBoundSamples={},MetricThreshold={}",
                     c.radix, c.num_inputs < 0 ? c.radix : c.num_inputs, c.num_samples, c.bound_sample_interval,
                     c.num_bound_samples, c.metric_threshold);
}

template <class M>
class RtlContentionDegree final : public ContentionDegree {
 public:
  RtlContentionDegree(const Cfg& c, const Selection& s, const std::string& instance)
      : instance_(instance),
        vcd_(vcd_path(s, instance, "contention_degree")),
        dut_(vcd_, s.trace_start, s.trace_cycles, "contention_degree_unit"),
        ref_(c),
        lockstep_(s.lockstep),
        in_(ref_.make_inputs()),
        out_(ref_.make_outputs()) {
    ref_.test_mutation = s.mutate_reference ? 1 : 0;
    // After this many zero samples every window holds zeros only; from then on the state only
    // moves its FIFO pointers, with period lcm(N, B*M).
    flush_ = c.num_samples + c.bound_sample_interval * (c.num_bound_samples + 2);
    period_ = std::lcm<int64_t>(c.num_samples, int64_t{c.bound_sample_interval} * c.num_bound_samples);
    zeros_.assign(c.radix, 0);
    zero_run_ = flush_;
  }
  void step(const uint8_t* dcr, int64_t cycle) override {
    bool zero = true;
    for (int o = 0; o < ref_.radix(); ++o) {
      in_.dcr[o] = dcr[o];
      zero = zero && dcr[o] == 0;
    }
    zero_run_ = zero ? zero_run_ + 1 : 0;
    cdu::drive(dut_.m(), ref_, in_);
    dut_.eval();
    if (lockstep_) {
      ref_.eval(out_);
      Mismatch mm;
      cdu::compare(dut_.m(), ref_, out_, static_cast<uint64_t>(cycle), mm);
      if (mm.found()) diverged(instance_, "contention_degree", mm);
      ref_.step(in_);
    }
    dut_.rise(cycle);
  }
  bool congested(int o) const override { return get_bits(dut_.m().congested_o, o, 1) != 0; }
  bool idle() const override { return zero_run_ >= flush_; }
  void skip_idle(uint64_t k, int64_t first) override {
    // A traced instance shows every cycle.
    const int64_t n = vcd_.empty() ? static_cast<int64_t>(k % static_cast<uint64_t>(period_)) : static_cast<int64_t>(k);
    if (lockstep_) ref_.skip_idle(k - static_cast<uint64_t>(n));  // the reference skips the rest exactly
    for (int64_t i = 0; i < n; ++i) step(zeros_.data(), first + static_cast<int64_t>(k) - n + i);
  }

 private:
  std::string instance_, vcd_;
  VModel<M> dut_;
  blocks::ContentionDegreeUnit ref_;  // widths for the port drivers; stepped only in lock step
  bool lockstep_;
  blocks::ContentionDegreeUnit::Inputs in_;
  blocks::ContentionDegreeUnit::Outputs out_;
  std::vector<uint8_t> zeros_;
  int64_t flush_, period_, zero_run_;
};

}  // namespace

std::unique_ptr<ContentionDegree> rtl_contention_degree(const Cfg& c, const Selection& s, const std::string& instance) {
  const std::string wanted = render(c);
  std::string compiled;
#define CCSIM_HW_TRY(V, NAME, PARAMS) CCSIM_HW_PICK(RtlContentionDegree, cdu::cdu_config, V, NAME, PARAMS)
  CCSIM_NET_CDU_MODELS(CCSIM_HW_TRY)
#undef CCSIM_HW_TRY
  no_model(Block::ContentionDegree, wanted, compiled);
}

}  // namespace ccsim::hw
