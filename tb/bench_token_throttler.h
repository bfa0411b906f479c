// Lock-step bench pieces for rtl/ccsim_token_throttler.sv vs tlm/blocks/token_throttler.h:
// constrained-random stimulus and the random lock-step run (the port binding, shared with RTL in
// the loop, is hw/port_token_throttler.h). Used by the tests (tb_token_throttler.cpp) and by `make waves`.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "hw/port_token_throttler.h"
#include "tb_common.h"

namespace ccsim::tb::tt {

using blocks::TokenThrottler;
using hw::tt::compare;
using hw::tt::drive;
using hw::tt::tt_config;

// Constrained random: destinations from a pool of 3*T ids so the table hits, fills and
// overflows; D_t mostly 1..8 (sometimes 0 or the maximum); generation rate per regime from
// none to heavy so both unthrottle outcomes happen; queue-full reports now and then. One
// regime in four is a quiet spell of 600-1500 cycles: no injections, few throttles, heavy
// generation and frequent NIC-wide queue-full reports keep the entries, so narrow token
// counters climb to their cap and must saturate there.
class TtStimulus {
 public:
  TtStimulus(const TokenThrottler::Config& c, uint64_t seed) : c_(c), rng_(seed) {
    pool_ = std::min<uint64_t>(uint64_t{1} << c.dest_width, 3ull * c.num_entries);
    dt_max_ = (uint64_t{1} << c.dt_width) - 1;
    size_max_ = (uint64_t{1} << c.size_width) - 1;
  }
  void next(uint64_t cycle, TokenThrottler::Inputs& in) {
    if (cycle >= until_) {
      quiet_ = rng_.chance(1, 4);
      gen_pct_ = quiet_ ? 30 : std::vector<uint64_t>{0, 1, 3, 10, 30}[rng_.below(5)];
      full_den_ = quiet_ ? 3 : rng_.chance(1, 2) ? 0 : rng_.range(200, 5000);
      thr_den_ = quiet_ ? 2000 : rng_.range(10, 200);
      until_ = cycle + (quiet_ ? rng_.range(600, 1500) : rng_.range(c_.src_epoch, 4ull * c_.src_epoch));
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
    in.inject_valid = !quiet_ && rng_.chance(2, 5);
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
  bool quiet_ = false;
};

template <class M>
RunResult run_random(const std::string& params, uint64_t cycles, uint64_t seed, int mutation,
                     const std::string& vcd = "", uint64_t* unthrottles = nullptr) {
  TokenThrottler ref(tt_config(Params(params)));
  ref.test_mutation = mutation;
  hw::VModel<M> dut(vcd);
  TtStimulus stim(ref.config(), seed);
  const uint64_t token_cap = field_mask(ref.config().token_width);
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
    if (reset_rng.chance(1, 5000) && !reset_between_edges(dut, ref, [&] {
          ref.eval(in, out);
          compare(dut.m(), ref, out, cycle, mm);
          return !mm.found();
        }))
      break;
    stim.next(cycle, in);
    drive(dut.m(), ref, in);
    dut.eval();
    ref.eval(in, out);
    compare(dut.m(), ref, out, cycle, mm);
    if (mm.found()) break;
    for (int i = 0; i < ref.config().num_entries; ++i) {
      n_unthrottle += out.unthrottle[i];
      res.cover["token counter at its cap"] += out.entry_valid[i] && out.entry_tokens[i] == token_cap;
    }
    res.events += out.overflow;
    res.cover["table overflow"] += out.overflow;
    res.cover["NIC-wide queue full"] += in.nic_full;
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
