// RTL in the loop: rtl/ccsim_contention_counters.sv (verilated) behind hw::ContentionCounters.
// Each increment/decrement call takes the next lane of the cycle; received arrays take rx lanes.
#include <fmt/format.h>

#include "hw/port_contention_counters.h"
#include "hw/rtl_blocks.h"
#include "hw/rtl_support.h"
#include "hw/vmodel.h"
#include "rtl_models.h"

namespace ccsim::hw {

namespace {

using Cfg = blocks::ContentionCounters::Config;

// Everything but the lane counts, which are the verilated model's own.
std::string render(const Cfg& c) {
  return fmt::format(
      "NumPorts={},CounterWidth={},Threshold={},NumGlobalLinks={},NumGroupRouters={},"
      "PartialWidth={},SentWidth={},BroadcastPeriod={},CombinedThreshold={}",
      c.num_ports, c.counter_width, c.threshold, c.num_global_links, c.num_group_routers, c.partial_width, c.sent_width,
      c.broadcast_period, c.combined_threshold);
}

template <class M>
class RtlContentionCounters final : public hw::ContentionCounters {
 public:
  RtlContentionCounters(const Cfg& c, const Selection& s, const std::string& instance)
      : instance_(instance),
        vcd_(vcd_path(s, instance, "contention_counters")),
        dut_(vcd_, s.trace_start, s.trace_cycles, "contention_counters"),
        ref_(c),
        lockstep_(s.lockstep),
        in_(ref_.make_inputs()),
        out_(ref_.make_outputs()) {
    ref_.test_mutation = s.mutate_reference ? 1 : 0;
  }
  void increment(int o) override {
    const int l = take(inc_, cfg().num_inc_ports, "NumIncPorts", in_.inc_valid);
    in_.inc_port[l] = static_cast<uint16_t>(o);
  }
  void decrement(int o) override {
    const int l = take(dec_, cfg().num_dec_ports, "NumDecPorts", in_.dec_valid);
    in_.dec_port[l] = static_cast<uint16_t>(o);
  }
  void partial_increment(int link) override {
    const int l = take(pinc_, cfg().num_inc_ports, "NumIncPorts", in_.pinc_valid);
    in_.pinc_link[l] = static_cast<uint16_t>(link);
  }
  void partial_decrement(int link) override {
    const int l = take(pdec_, cfg().num_dec_ports, "NumDecPorts", in_.pdec_valid);
    in_.pdec_link[l] = static_cast<uint16_t>(link);
  }
  void receive_partial(int router, const uint8_t* values) override {
    const int l = take(rx_, cfg().num_rx_ports, "NumRxPorts", in_.rx_valid);
    in_.rx_router[l] = static_cast<uint16_t>(router);
    std::copy(values, values + cfg().num_global_links,
              in_.rx_partial.begin() + static_cast<long>(l) * cfg().num_global_links);
  }
  void tick(int64_t cycle) override {
    cc::drive(dut_.m(), ref_, in_);
    dut_.eval();
    if (lockstep_) {
      ref_.eval(out_);
      Mismatch mm;
      cc::compare(dut_.m(), ref_, out_, static_cast<uint64_t>(cycle), mm);
      if (mm.found()) diverged(instance_, "contention_counters", mm);
      ref_.step(in_);
    }
    dut_.rise(cycle);
    clear();
  }
  bool contended(int o) const override { return get_bits(dut_.m().contended_o, o, 1) != 0; }
  bool combined_contended(int l) const override { return get_bits(dut_.m().combined_contended_o, l, 1) != 0; }
  void broadcast_partial(uint8_t* out) const override {
    const int sw = cfg().sent_width;
    for (int g = 0; g < cfg().num_global_links; ++g)
      out[g] = static_cast<uint8_t>(get_bits(dut_.m().bcast_partial_o, g * sw, sw));
  }

 private:
  const Cfg& cfg() const { return ref_.config(); }
  int take(int& used, int lanes, const char* name, std::vector<uint8_t>& valid) {
    if (used == lanes) lane_overflow(instance_, "contention_counters", name, lanes);
    valid[used] = 1;
    return used++;
  }
  void clear() {
    std::fill(in_.inc_valid.begin(), in_.inc_valid.end(), 0);
    std::fill(in_.dec_valid.begin(), in_.dec_valid.end(), 0);
    std::fill(in_.pinc_valid.begin(), in_.pinc_valid.end(), 0);
    std::fill(in_.pdec_valid.begin(), in_.pdec_valid.end(), 0);
    std::fill(in_.rx_valid.begin(), in_.rx_valid.end(), 0);
    inc_ = dec_ = pinc_ = pdec_ = rx_ = 0;
  }

  std::string instance_, vcd_;
  VModel<M> dut_;
  blocks::ContentionCounters ref_;  // widths for the port drivers; stepped only in lock step
  bool lockstep_;
  blocks::ContentionCounters::Inputs in_;
  blocks::ContentionCounters::Outputs out_;
  int inc_ = 0, dec_ = 0, pinc_ = 0, pdec_ = 0, rx_ = 0;  // lanes used this cycle
};

}  // namespace

std::unique_ptr<hw::ContentionCounters> rtl_contention_counters(const Cfg& c, const Selection& s,
                                                                const std::string& instance) {
  const std::string wanted = render(c);
  std::string compiled;
#define CCSIM_HW_TRY(V, NAME, PARAMS) CCSIM_HW_PICK(RtlContentionCounters, cc::cc_config, V, NAME, PARAMS)
  CCSIM_NET_CC_MODELS(CCSIM_HW_TRY)
#undef CCSIM_HW_TRY
  no_model(Block::ContentionCounters,
           wanted + ",NumIncPorts=32,NumDecPorts=32,NumRxPorts=" + std::to_string(std::max(1, c.num_rx_ports)),
           compiled);
}

}  // namespace ccsim::hw
