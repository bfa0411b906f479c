// Port binding of rtl/ccsim_token_throttler.sv to its reference tlm/blocks/token_throttler.h: the
// reference's configuration from the RTL parameter string, driving the model's inputs, comparing
// its outputs. Shared by RTL in the loop (hw/) and the testbench (tb/).
#pragma once

#include "blocks/token_throttler.h"
#include "hw/mismatch.h"
#include "hw/rtl_params.h"
#include "hw/vl_fields.h"

namespace ccsim::hw::tt {

using blocks::TokenThrottler;

inline TokenThrottler::Config tt_config(const Params& p) {
  TokenThrottler::Config c;
  c.num_entries = static_cast<int>(p.get("NumEntries", c.num_entries));
  c.dest_width = static_cast<int>(p.get("DestWidth", c.dest_width));
  c.dt_width = static_cast<int>(p.get("DtWidth", c.dt_width));
  c.size_width = static_cast<int>(p.get("SizeWidth", c.size_width));
  c.token_width = static_cast<int>(p.get("TokenWidth", c.token_width));
  c.src_epoch = static_cast<int>(p.get("SrcEpoch", c.src_epoch));
  c.num_query_ports = static_cast<int>(p.get("NumQueryPorts", c.num_query_ports));
  c.num_gen_ports = static_cast<int>(p.get("NumGenPorts", c.num_gen_ports));
  c.num_full_ports = static_cast<int>(p.get("NumFullPorts", c.num_full_ports));
  c.keep_epoch_on_update = p.get("KeepEpochOnUpdate", c.keep_epoch_on_update ? 1 : 0) != 0;
  return c;
}

template <class M>
void drive(M& m, const TokenThrottler& ref, const TokenThrottler::Inputs& in) {
  const auto& c = ref.config();
  const int dw = c.dest_width, sw = c.size_width;
  m.throttle_valid_i = in.throttle_valid;
  m.throttle_dest_i = in.throttle_dest;
  m.throttle_dt_i = in.throttle_dt;
  for (int q = 0; q < c.num_query_ports; ++q) {
    set_bits(m.query_dest_i, q * dw, dw, in.query_dest[q]);
    set_bits(m.query_size_i, q * sw, sw, in.query_size[q]);
  }
  m.inject_valid_i = in.inject_valid;
  m.inject_dest_i = in.inject_dest;
  m.inject_size_i = in.inject_size;
  for (int g = 0; g < c.num_gen_ports; ++g) {
    set_bits(m.gen_valid_i, g, 1, in.gen_valid[g]);
    set_bits(m.gen_dest_i, g * dw, dw, in.gen_dest[g]);
    set_bits(m.gen_size_i, g * sw, sw, in.gen_size[g]);
  }
  for (int f = 0; f < c.num_full_ports; ++f) {
    set_bits(m.full_valid_i, f, 1, in.full_valid[f]);
    set_bits(m.full_dest_i, f * dw, dw, in.full_dest[f]);
  }
  m.nic_full_i = in.nic_full;
}

template <class M>
void compare(M& m, const TokenThrottler& ref, const TokenThrottler::Outputs& out, uint64_t cycle, Mismatch& mm) {
  const auto& c = ref.config();
  for (int q = 0; q < c.num_query_ports; ++q) {
    mm.eq(cycle, "query_eligible_o", q, out.query_eligible[q], get_bits(m.query_eligible_o, q, 1));
    mm.eq(cycle, "query_throttled_o", q, out.query_throttled[q], get_bits(m.query_throttled_o, q, 1));
  }
  mm.eq(cycle, "inject_ok_o", -1, out.inject_ok, m.inject_ok_o);
  mm.eq(cycle, "overflow_o", -1, out.overflow, m.overflow_o);
  const int gw = ref.gen_width();
  for (int i = 0; i < c.num_entries && !mm.found(); ++i) {
    mm.eq(cycle, "entry_valid_o", i, out.entry_valid[i], get_bits(m.entry_valid_o, i, 1));
    mm.eq(cycle, "entry_dest_o", i, out.entry_dest[i], get_bits(m.entry_dest_o, i * c.dest_width, c.dest_width));
    mm.eq(cycle, "entry_dt_o", i, out.entry_dt[i], get_bits(m.entry_dt_o, i * c.dt_width, c.dt_width));
    mm.eq(cycle, "entry_tokens_o", i, out.entry_tokens[i],
          get_bits(m.entry_tokens_o, i * c.token_width, c.token_width));
    mm.eq(cycle, "entry_gen_o", i, out.entry_gen[i], get_bits(m.entry_gen_o, i * gw, gw));
    mm.eq(cycle, "entry_epoch_o", i, out.entry_epoch[i], get_bits(m.entry_epoch_o, i * gw, gw));
    mm.eq(cycle, "entry_full_o", i, out.entry_full[i], get_bits(m.entry_full_o, i, 1));
    mm.eq(cycle, "unthrottle_o", i, out.unthrottle[i], get_bits(m.unthrottle_o, i, 1));
  }
}

}  // namespace ccsim::hw::tt
