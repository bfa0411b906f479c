// Port binding of rtl/ccsim_contention_counters.sv to its reference tlm/blocks/contention_counters.h: the
// reference's configuration from the RTL parameter string, driving the model's inputs, comparing
// its outputs. Shared by RTL in the loop (hw/) and the testbench (tb/).
#pragma once

#include "blocks/contention_counters.h"
#include "hw/mismatch.h"
#include "hw/rtl_params.h"
#include "hw/vl_fields.h"

namespace ccsim::hw::cc {

using blocks::ContentionCounters;

inline ContentionCounters::Config cc_config(const Params& p) {
  ContentionCounters::Config c;
  c.num_ports = static_cast<int>(p.get("NumPorts", c.num_ports));
  c.num_inc_ports = static_cast<int>(p.get("NumIncPorts", c.num_inc_ports));
  c.num_dec_ports = static_cast<int>(p.get("NumDecPorts", c.num_dec_ports));
  c.counter_width = static_cast<int>(p.get("CounterWidth", c.counter_width));
  c.threshold = static_cast<int>(p.get("Threshold", c.threshold));
  c.num_global_links = static_cast<int>(p.get("NumGlobalLinks", c.num_global_links));
  c.num_group_routers = static_cast<int>(p.get("NumGroupRouters", c.num_group_routers));
  c.partial_width = static_cast<int>(p.get("PartialWidth", c.partial_width));
  c.sent_width = static_cast<int>(p.get("SentWidth", c.sent_width));
  c.broadcast_period = static_cast<int>(p.get("BroadcastPeriod", c.broadcast_period));
  c.combined_threshold = static_cast<int>(p.get("CombinedThreshold", c.combined_threshold));
  c.num_rx_ports = static_cast<int>(p.get("NumRxPorts", c.num_rx_ports));
  return c;
}

template <class M>
void drive(M& m, const ContentionCounters& ref, const ContentionCounters::Inputs& in) {
  const auto& c = ref.config();
  const int pw = ref.port_width(), lw = ref.link_width(), rw = ref.router_width();
  for (int l = 0; l < c.num_inc_ports; ++l) {
    set_bits(m.inc_valid_i, l, 1, in.inc_valid[l]);
    set_bits(m.inc_port_i, l * pw, pw, in.inc_port[l]);
    set_bits(m.pinc_valid_i, l, 1, in.pinc_valid[l]);
    set_bits(m.pinc_link_i, l * lw, lw, in.pinc_link[l]);
  }
  for (int l = 0; l < c.num_dec_ports; ++l) {
    set_bits(m.dec_valid_i, l, 1, in.dec_valid[l]);
    set_bits(m.dec_port_i, l * pw, pw, in.dec_port[l]);
    set_bits(m.pdec_valid_i, l, 1, in.pdec_valid[l]);
    set_bits(m.pdec_link_i, l * lw, lw, in.pdec_link[l]);
  }
  for (int p = 0; p < c.num_rx_ports; ++p) {
    set_bits(m.rx_valid_i, p, 1, in.rx_valid[p]);
    set_bits(m.rx_router_i, p * rw, rw, in.rx_router[p]);
    for (int g = 0; g < c.num_global_links; ++g) {
      const size_t k = static_cast<size_t>(p) * c.num_global_links + g;
      set_bits(m.rx_partial_i, static_cast<int>(k) * c.sent_width, c.sent_width, in.rx_partial[k]);
    }
  }
}

template <class M>
void compare(M& m, const ContentionCounters& ref, const ContentionCounters::Outputs& out, uint64_t cycle,
             Mismatch& mm) {
  const auto& c = ref.config();
  for (int o = 0; o < c.num_ports && !mm.found(); ++o) {
    mm.eq(cycle, "count_o", o, out.count[o], get_bits(m.count_o, o * c.counter_width, c.counter_width));
    mm.eq(cycle, "contended_o", o, out.contended[o], get_bits(m.contended_o, o, 1));
  }
  const int cw = ref.combined_width();
  for (int g = 0; g < c.num_global_links && !mm.found(); ++g) {
    mm.eq(cycle, "partial_o", g, out.partial[g], get_bits(m.partial_o, g * c.partial_width, c.partial_width));
    mm.eq(cycle, "combined_o", g, out.combined[g], get_bits(m.combined_o, g * cw, cw));
    mm.eq(cycle, "combined_contended_o", g, out.combined_contended[g], get_bits(m.combined_contended_o, g, 1));
    mm.eq(cycle, "bcast_partial_o", g, out.bcast_partial[g],
          get_bits(m.bcast_partial_o, g * c.sent_width, c.sent_width));
  }
  mm.eq(cycle, "bcast_valid_o", -1, out.bcast_valid, m.bcast_valid_o);
}

}  // namespace ccsim::hw::cc
