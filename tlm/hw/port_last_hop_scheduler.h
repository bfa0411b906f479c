// Port binding of rtl/ccsim_last_hop_scheduler.sv to its reference tlm/blocks/last_hop_scheduler.h: the
// reference's configuration from the RTL parameter string, driving the model's inputs, comparing
// its outputs. Shared by RTL in the loop (hw/) and the testbench (tb/).
#pragma once

#include "blocks/last_hop_scheduler.h"
#include "hw/mismatch.h"
#include "hw/rtl_params.h"
#include "hw/vl_fields.h"

namespace ccsim::hw::lhs {

using blocks::LastHopScheduler;

inline LastHopScheduler::Config lhs_config(const Params& p) {
  LastHopScheduler::Config c;
  c.num_endpoints = static_cast<int>(p.get("NumEndpoints", c.num_endpoints));
  c.num_req_ports = static_cast<int>(p.get("NumReqPorts", c.num_req_ports));
  c.num_enq_ports = static_cast<int>(p.get("NumEnqPorts", c.num_enq_ports));
  c.num_deq_ports = static_cast<int>(p.get("NumDeqPorts", c.num_deq_ports));
  c.count_width = static_cast<int>(p.get("CountWidth", c.count_width));
  c.drop_threshold = static_cast<int>(p.get("DropThreshold", c.drop_threshold));
  c.threshold_strict = p.get("ThresholdStrict", c.threshold_strict ? 1 : 0) != 0;
  c.time_width = static_cast<int>(p.get("TimeWidth", c.time_width));
  c.size_width = static_cast<int>(p.get("SizeWidth", c.size_width));
  c.flits_width = static_cast<int>(p.get("FlitsWidth", c.flits_width));
  return c;
}

template <class M>
void drive(M& m, const LastHopScheduler& ref, const LastHopScheduler::Inputs& in) {
  const auto& c = ref.config();
  const int ew = ref.ep_width();
  set_bits(m.now_i, 0, c.time_width, in.now);
  for (int p = 0; p < c.num_req_ports; ++p) {
    set_bits(m.req_valid_i, p, 1, in.req_valid[p]);
    set_bits(m.req_spec_i, p, 1, in.req_spec[p]);
    set_bits(m.req_ep_i, p * ew, ew, in.req_ep[p]);
    set_bits(m.req_size_i, p * c.size_width, c.size_width, in.req_size[p]);
  }
  for (int l = 0; l < c.num_enq_ports; ++l) {
    set_bits(m.enq_valid_i, l, 1, in.enq_valid[l]);
    set_bits(m.enq_ep_i, l * ew, ew, in.enq_ep[l]);
    set_bits(m.enq_flits_i, l * c.flits_width, c.flits_width, in.enq_flits[l]);
  }
  for (int l = 0; l < c.num_deq_ports; ++l) {
    set_bits(m.deq_valid_i, l, 1, in.deq_valid[l]);
    set_bits(m.deq_ep_i, l * ew, ew, in.deq_ep[l]);
    set_bits(m.deq_flits_i, l * c.flits_width, c.flits_width, in.deq_flits[l]);
  }
}

template <class M>
void compare(M& m, const LastHopScheduler& ref, const LastHopScheduler::Outputs& out, uint64_t cycle, Mismatch& mm) {
  const auto& c = ref.config();
  const int tw = c.time_width;
  for (int p = 0; p < c.num_req_ports && !mm.found(); ++p) {
    mm.eq(cycle, "drop_o", p, out.drop[p], get_bits(m.drop_o, p, 1));
    mm.eq(cycle, "grant_valid_o", p, out.grant_valid[p], get_bits(m.grant_valid_o, p, 1));
    mm.eq(cycle, "grant_time_o", p, out.grant_time[p], get_bits(m.grant_time_o, p * tw, tw));
  }
  for (int e = 0; e < c.num_endpoints && !mm.found(); ++e) {
    mm.eq(cycle, "queued_o", e, out.queued[e], get_bits(m.queued_o, e * c.count_width, c.count_width));
    mm.eq(cycle, "next_free_o", e, out.next_free[e], get_bits(m.next_free_o, e * tw, tw));
  }
}

}  // namespace ccsim::hw::lhs
