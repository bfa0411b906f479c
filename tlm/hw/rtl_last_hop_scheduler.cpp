// RTL in the loop: rtl/ccsim_last_hop_scheduler.sv (verilated) behind hw::LastHopScheduler.
//
// should_drop(e) asks the RTL's drop decision through a probe on the next request lane (a
// speculative head of size 0, which reserves nothing) and withdraws it; reserve() takes that
// lane as a reservation request (req_spec = 0, always granted). So a speculative drop with its
// reservation reaches the RTL as a probe plus a reservation in lane order: the same grant times
// as one speculative request, and also right for the combined protocol's drops that reserve
// nothing. Flit reports wider than FlitsWidth are split over several lanes.
#include <fmt/format.h>

#include "hw/port_last_hop_scheduler.h"
#include "hw/rtl_blocks.h"
#include "hw/rtl_support.h"
#include "hw/vmodel.h"
#include "rtl_models.h"

namespace ccsim::hw {

namespace {

using Cfg = blocks::LastHopScheduler::Config;

// Everything but the lane counts and the report width, which are the verilated model's own.
std::string render(const Cfg& c) {
  return fmt::format("NumEndpoints={},CountWidth={},DropThreshold={},ThresholdStrict={},TimeWidth={},SizeWidth={}",
                     c.num_endpoints, c.count_width, c.drop_threshold, c.threshold_strict ? 1 : 0, c.time_width,
                     c.size_width);
}

template <class M>
class RtlLastHopScheduler final : public hw::LastHopScheduler {
 public:
  RtlLastHopScheduler(const Cfg& c, const Selection& s, const std::string& instance)
      : instance_(instance),
        vcd_(vcd_path(s, instance, "lhrp_scheduler")),
        dut_(vcd_, s.trace_start, s.trace_cycles, "last_hop_scheduler"),
        ref_(c),
        lockstep_(s.lockstep),
        in_(ref_.make_inputs()),
        out_(ref_.make_outputs()),
        flits_max_(static_cast<uint32_t>(field_mask(c.flits_width))) {
    ref_.test_mutation = s.mutate_reference ? 1 : 0;
  }
  void enqueue(int e, uint32_t flits) override {
    report(e, flits, enq_, cfg().num_enq_ports, "NumEnqPorts", in_.enq_valid, in_.enq_ep, in_.enq_flits);
  }
  void dequeue(int e, uint32_t flits) override {
    report(e, flits, deq_, cfg().num_deq_ports, "NumDeqPorts", in_.deq_valid, in_.deq_ep, in_.deq_flits);
  }
  bool should_drop(int e) override {
    const int l = lane();
    set_req(l, 1, e, 0);
    const bool drop = get_bits(dut_.m().drop_o, l, 1) != 0;
    if (lockstep_) check(l, "should_drop", drop, out_.drop[l]);
    in_.req_valid[l] = 0;
    return drop;
  }
  uint64_t reserve(int e, uint32_t size, uint64_t now) override {
    in_.now = now;
    const int l = lane();
    set_req(l, 0, e, size);
    const int tw = cfg().time_width;
    const uint64_t t = get_bits(dut_.m().grant_time_o, l * tw, tw);
    if (lockstep_) check(l, "reserve", t, out_.grant_time[l]);
    ++req_;
    return t;
  }
  void tick(int64_t cycle) override {
    lhs::drive(dut_.m(), ref_, in_);
    dut_.eval();
    if (lockstep_) {
      ref_.eval(in_, out_);
      Mismatch mm;
      lhs::compare(dut_.m(), ref_, out_, static_cast<uint64_t>(cycle), mm);
      if (mm.found()) diverged(instance_, "lhrp_scheduler", mm);
      ref_.step(in_);
    }
    dut_.rise(cycle);
    std::fill(in_.req_valid.begin(), in_.req_valid.end(), 0);
    std::fill(in_.enq_valid.begin(), in_.enq_valid.end(), 0);
    std::fill(in_.deq_valid.begin(), in_.deq_valid.end(), 0);
    req_ = enq_ = deq_ = 0;
    next_ = cycle + 1;
  }

 private:
  const Cfg& cfg() const { return ref_.config(); }
  int lane() {
    if (req_ == cfg().num_req_ports) lane_overflow(instance_, "lhrp_scheduler", "NumReqPorts", req_);
    return req_;
  }
  void set_req(int l, uint8_t spec, int e, uint32_t size) {
    in_.req_valid[l] = 1;
    in_.req_spec[l] = spec;
    in_.req_ep[l] = static_cast<uint32_t>(e);
    in_.req_size[l] = size;
    lhs::drive(dut_.m(), ref_, in_);
    dut_.eval();
    if (lockstep_) ref_.eval(in_, out_);
  }
  void check(int, const char* call, uint64_t rtl, uint64_t ref) {
    if (rtl != ref) call_diverged(instance_, "lhrp_scheduler", next_, call, ref, rtl);
  }
  void report(int e, uint32_t flits, int& used, int lanes, const char* name, std::vector<uint8_t>& valid,
              std::vector<uint32_t>& ep, std::vector<uint32_t>& n) {
    while (flits > 0) {
      if (used == lanes) lane_overflow(instance_, "lhrp_scheduler", name, lanes);
      const uint32_t take = std::min(flits, flits_max_);
      valid[used] = 1;
      ep[used] = static_cast<uint32_t>(e);
      n[used] = take;
      ++used;
      flits -= take;
    }
  }

  std::string instance_, vcd_;
  VModel<M> dut_;
  blocks::LastHopScheduler ref_;  // widths for the port drivers; stepped only in lock step
  bool lockstep_;
  blocks::LastHopScheduler::Inputs in_;
  blocks::LastHopScheduler::Outputs out_;
  uint32_t flits_max_;
  int req_ = 0, enq_ = 0, deq_ = 0;  // lanes used this cycle
  int64_t next_ = 0;                 // the cycle after the last tick (for lock-step messages)
};

}  // namespace

std::unique_ptr<hw::LastHopScheduler> rtl_last_hop_scheduler(const Cfg& c, const Selection& s,
                                                             const std::string& instance) {
  const std::string wanted = render(c);
  std::string compiled;
#define CCSIM_HW_TRY(V, NAME, PARAMS) CCSIM_HW_PICK(RtlLastHopScheduler, lhs::lhs_config, V, NAME, PARAMS)
  CCSIM_NET_LHS_MODELS(CCSIM_HW_TRY)
#undef CCSIM_HW_TRY
  no_model(Block::LastHopScheduler, wanted + ",NumReqPorts=16,NumEnqPorts=32,NumDeqPorts=8,FlitsWidth=8", compiled);
}

}  // namespace ccsim::hw
