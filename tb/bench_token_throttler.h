// Lock-step bench pieces for rtl/ccsim_token_throttler.sv vs tlm/blocks/token_throttler.h: reference configuration
// from the RTL parameter string, port driving, output comparison, constrained-random stimulus
// and the random lock-step run. Used by the tests (tb_token_throttler.cpp) and by `make waves`.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "blocks/token_throttler.h"
#include "tb_common.h"

namespace ccsim::tb::tt {

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

// Constrained random: destinations from a pool of 3*T ids so the table hits, fills and
// overflows; D_t mostly 1..8 (sometimes 0 or the maximum); generation rate per regime from
// none to heavy so both unthrottle outcomes happen; queue-full reports now and then.
class TtStimulus {
 public:
  TtStimulus(const TokenThrottler::Config& c, uint64_t seed) : c_(c), rng_(seed) {
    pool_ = std::min<uint64_t>(uint64_t{1} << c.dest_width, 3ull * c.num_entries);
    dt_max_ = (uint64_t{1} << c.dt_width) - 1;
    size_max_ = (uint64_t{1} << c.size_width) - 1;
  }
  void next(uint64_t cycle, TokenThrottler::Inputs& in) {
    if (cycle >= until_) {
      gen_pct_ = std::vector<uint64_t>{0, 1, 3, 10, 30}[rng_.below(5)];
      full_den_ = rng_.chance(1, 2) ? 0 : rng_.range(200, 5000);
      thr_den_ = rng_.range(10, 200);
      until_ = cycle + rng_.range(c_.src_epoch, 4ull * c_.src_epoch);
    }
    in.throttle_valid = rng_.chance(1, thr_den_);
    in.throttle_dest = static_cast<uint32_t>(dest());
    const uint64_t r = rng_.below(50);
    in.throttle_dt = static_cast<uint32_t>(r == 0   ? 0
                                           : r == 1 ? dt_max_
                                                    : rng_.range(1, std::min<uint64_t>(8, dt_max_)));
    for (int q = 0; q < c_.num_query_ports; ++q) {
      in.query_dest[q] = static_cast<uint32_t>(dest());
      in.query_size[q] = static_cast<uint32_t>(rng_.range(0, size_max_));
    }
    in.inject_valid = rng_.chance(2, 5);
    in.inject_dest = static_cast<uint32_t>(dest());
    in.inject_size = static_cast<uint32_t>(rng_.range(1, size_max_));
    for (int g = 0; g < c_.num_gen_ports; ++g) {
      in.gen_valid[g] = rng_.below(100) < gen_pct_;
      in.gen_dest[g] = static_cast<uint32_t>(dest());
      in.gen_size[g] = static_cast<uint32_t>(rng_.range(0, size_max_));
    }
    for (int f = 0; f < c_.num_full_ports; ++f) {
      in.full_valid[f] = full_den_ && rng_.chance(1, full_den_);
      in.full_dest[f] = static_cast<uint32_t>(dest());
    }
    in.nic_full = full_den_ && rng_.chance(1, 10 * full_den_);
  }

 private:
  uint64_t dest() { return rng_.below(pool_); }
  TokenThrottler::Config c_;
  Rng rng_;
  uint64_t pool_, dt_max_, size_max_;
  uint64_t until_ = 0, gen_pct_ = 0, full_den_ = 0, thr_den_ = 50;
};

template <class M>
RunResult run_random(const std::string& params, uint64_t cycles, uint64_t seed, int mutation,
                     const std::string& vcd = "", uint64_t* unthrottles = nullptr) {
  TokenThrottler ref(tt_config(Params(params)));
  ref.test_mutation = mutation;
  Dut<M> dut(vcd);
  TtStimulus stim(ref.config(), seed);
  Rng reset_rng(seed ^ 0x5eed);
  auto in = ref.make_inputs();
  auto out = ref.make_outputs();
  Mismatch mm;
  RunResult res;
  dut.reset();
  ref.reset();
  uint64_t n_unthrottle = 0;
  for (uint64_t cycle = 0; cycle < cycles; ++cycle) {
    if (reset_rng.chance(1, 50000)) {
      dut.reset();
      ref.reset();
    }
    stim.next(cycle, in);
    drive(dut.m(), ref, in);
    dut.eval();
    ref.eval(in, out);
    compare(dut.m(), ref, out, cycle, mm);
    if (mm.found()) break;
    for (int i = 0; i < ref.config().num_entries; ++i) n_unthrottle += out.unthrottle[i];
    res.events += out.overflow;
    dut.rise();
    ref.step(in);
    res.cycles = cycle + 1;
  }
  if (unthrottles) *unthrottles = n_unthrottle;
  res.mismatch = mm.found();
  if (res.mismatch) res.message = mm.describe() + " (seed " + std::to_string(seed) + ", " + params + ")";
  return res;
}

}  // namespace ccsim::tb::tt
