// RTL in the loop: rtl/ccsim_token_throttler.sv (verilated) behind hw::TokenThrottler.
// Queries use query lane 0 and re-evaluate the model with this cycle's other inputs applied,
// so they see a THROTTLE of the same cycle first, as the reference does.
#include <fmt/format.h>

#include "hw/port_token_throttler.h"
#include "hw/rtl_blocks.h"
#include "hw/rtl_support.h"
#include "hw/vmodel.h"
#include "rtl_models.h"

namespace ccsim::hw {

namespace {

using Cfg = blocks::TokenThrottler::Config;

// Everything but the lane counts, which are the verilated model's own.
std::string render(const Cfg& c) {
  return fmt::format(
      "NumEntries={},DestWidth={},DtWidth={},SizeWidth={},TokenWidth={},SrcEpoch={},KeepEpochOnUpdate={}",
      c.num_entries, c.dest_width, c.dt_width, c.size_width, c.token_width, c.src_epoch,
      c.keep_epoch_on_update ? 1 : 0);
}

template <class M>
class RtlTokenThrottler final : public hw::TokenThrottler {
 public:
  RtlTokenThrottler(const Cfg& c, const Selection& s, const std::string& instance)
      : instance_(instance),
        vcd_(vcd_path(s, instance, "token_throttler")),
        dut_(vcd_, s.trace_start, s.trace_cycles, "token_throttler"),
        ref_(c),
        lockstep_(s.lockstep),
        in_(ref_.make_inputs()),
        out_(ref_.make_outputs()) {
    ref_.test_mutation = s.mutate_reference ? 1 : 0;
    apply();
  }
  bool throttle(uint32_t dest, uint32_t dt) override {
    if (in_.throttle_valid) return false;
    in_.throttle_valid = 1;
    in_.throttle_dest = dest;
    in_.throttle_dt = dt;
    apply();
    return true;
  }
  bool can_inject(uint32_t dest, uint32_t flits) override {
    in_.query_dest[0] = dest;
    in_.query_size[0] = flits;
    apply();
    const bool rtl = get_bits(dut_.m().query_eligible_o, 0, 1) != 0;
    if (lockstep_) {
      ref_.eval(in_, out_);
      if (out_.query_eligible[0] != rtl) call_diverged(instance_, "token_throttler", next_, "can_inject", !rtl, rtl);
    }
    return rtl;
  }
  bool inject(uint32_t dest, uint32_t flits) override {
    if (in_.inject_valid) return false;  // one injection per cycle
    in_.inject_valid = 1;
    in_.inject_dest = dest;
    in_.inject_size = flits;
    apply();
    const bool ok = dut_.m().inject_ok_o != 0;
    if (lockstep_) {
      ref_.eval(in_, out_);
      if (out_.inject_ok != ok) call_diverged(instance_, "token_throttler", next_, "inject", !ok, ok);
    }
    if (!ok) {  // not eligible: nothing is charged
      in_.inject_valid = 0;
      apply();
    }
    return ok;
  }
  void generated(uint32_t dest, uint32_t flits) override {
    if (gen_ == ref_.config().num_gen_ports) lane_overflow(instance_, "token_throttler", "NumGenPorts", gen_);
    in_.gen_valid[gen_] = 1;
    in_.gen_dest[gen_] = dest;
    in_.gen_size[gen_] = flits;
    ++gen_;
  }
  int tick(int64_t cycle) override {
    apply();
    const auto& m = dut_.m();
    const auto& c = ref_.config();
    unthrottled_.clear();
    for (int i = 0; i < c.num_entries; ++i)
      if (get_bits(m.unthrottle_o, i, 1))
        unthrottled_.push_back(static_cast<uint32_t>(get_bits(m.entry_dest_o, i * c.dest_width, c.dest_width)));
    overflows_ += m.overflow_o;
    if (lockstep_) {
      ref_.eval(in_, out_);
      Mismatch mm;
      tt::compare(dut_.m(), ref_, out_, static_cast<uint64_t>(cycle), mm);
      if (mm.found()) diverged(instance_, "token_throttler", mm);
      ref_.step(in_);
    }
    dut_.rise(cycle);
    in_.throttle_valid = in_.inject_valid = in_.nic_full = 0;
    std::fill(in_.gen_valid.begin(), in_.gen_valid.end(), 0);
    std::fill(in_.full_valid.begin(), in_.full_valid.end(), 0);
    gen_ = 0;
    next_ = cycle + 1;
    apply();
    return static_cast<int>(unthrottled_.size());
  }
  uint32_t unthrottled(int k) const override { return unthrottled_[k]; }
  bool is_throttled(uint32_t dest) const override { return entry(dest) >= 0; }
  uint32_t throttling_degree(uint32_t dest) const override {
    const int i = entry(dest);
    const int w = ref_.config().dt_width;
    return i < 0 ? 0 : static_cast<uint32_t>(get_bits(dut_.m().entry_dt_o, i * w, w));
  }
  int num_throttled() const override {
    int n = 0;
    for (int i = 0; i < ref_.config().num_entries; ++i) n += static_cast<int>(get_bits(dut_.m().entry_valid_o, i, 1));
    return n;
  }
  uint64_t overflows() const override { return overflows_; }

 private:
  void apply() {
    tt::drive(dut_.m(), ref_, in_);
    dut_.eval();
  }
  int entry(uint32_t dest) const {
    const auto& c = ref_.config();
    for (int i = 0; i < c.num_entries; ++i)
      if (get_bits(dut_.m().entry_valid_o, i, 1) &&
          get_bits(dut_.m().entry_dest_o, i * c.dest_width, c.dest_width) == (dest & field_mask(c.dest_width)))
        return i;
    return -1;
  }

  std::string instance_, vcd_;
  VModel<M> dut_;
  blocks::TokenThrottler ref_;  // widths for the port drivers; stepped only in lock step
  bool lockstep_;
  blocks::TokenThrottler::Inputs in_;
  blocks::TokenThrottler::Outputs out_;
  int gen_ = 0;
  int64_t next_ = 0;  // the cycle after the last tick (for lock-step messages)
  std::vector<uint32_t> unthrottled_;
  uint64_t overflows_ = 0;
};

}  // namespace

std::unique_ptr<hw::TokenThrottler> rtl_token_throttler(const Cfg& c, const Selection& s, const std::string& instance) {
  if (c.token_increment != 1 || c.cost_scale != 1)
    throw ConfigError("hardware.token_throttler",
                      "rtl: the RTL earns one token per cycle (not the shared variant's 0.99/D_t); use "
                      "congestion.cbcm_variant = \"dedicated\" or \"ideal\"");
  const std::string wanted = render(c);
  std::string compiled;
#define CCSIM_HW_TRY(V, NAME, PARAMS) CCSIM_HW_PICK(RtlTokenThrottler, tt::tt_config, V, NAME, PARAMS)
  CCSIM_NET_TT_MODELS(CCSIM_HW_TRY)
#undef CCSIM_HW_TRY
  no_model(Block::TokenThrottler, wanted + ",NumQueryPorts=1,NumGenPorts=8,NumFullPorts=1", compiled);
}

}  // namespace ccsim::hw
