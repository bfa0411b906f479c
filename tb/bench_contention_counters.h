// Lock-step bench pieces for rtl/ccsim_contention_counters.sv vs tlm/blocks/contention_counters.h:
// constrained-random stimulus and the random lock-step run (the port binding, shared with RTL in
// the loop, is hw/port_contention_counters.h). Used by the tests (tb_contention_counters.cpp) and by `make waves`.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "hw/port_contention_counters.h"
#include "tb_common.h"

namespace ccsim::tb::cc {

using blocks::ContentionCounters;
using hw::cc::cc_config;
using hw::cc::compare;
using hw::cc::drive;

// Constrained random: increments name random ports; decrements mostly name ports with
// outstanding counted heads (legal), sometimes any port (clamping at 0). The load changes
// every 500..3000 cycles between light and heavy so counters cross the thresholds and, with
// narrow widths, saturate. Received arrays come from distinct routers.
class CcStimulus {
 public:
  CcStimulus(const ContentionCounters::Config& c, uint64_t seed)
      : c_(c), rng_(seed), heads_(c.num_ports, 0), pheads_(c.num_global_links, 0) {}
  void next(uint64_t cycle, ContentionCounters::Inputs& in) {
    if (cycle >= until_) {
      inc_pct_ = rng_.range(5, 70);
      dec_pct_ = rng_.range(5, 70);
      hot_ = static_cast<int>(rng_.below(c_.num_ports));
      hot_link_ = static_cast<int>(rng_.below(c_.num_global_links));
      until_ = cycle + rng_.range(500, 3000);
    }
    for (int l = 0; l < c_.num_inc_ports; ++l) {
      in.inc_valid[l] = rng_.below(100) < inc_pct_;
      const int o = rng_.chance(1, 2) ? hot_ : static_cast<int>(rng_.below(c_.num_ports));
      in.inc_port[l] = static_cast<uint16_t>(o);
      if (in.inc_valid[l]) ++heads_[o];
      in.pinc_valid[l] = rng_.below(100) < inc_pct_;
      const int g = rng_.chance(1, 2) ? hot_link_ : static_cast<int>(rng_.below(c_.num_global_links));
      in.pinc_link[l] = static_cast<uint16_t>(g);
      if (in.pinc_valid[l]) ++pheads_[g];
    }
    for (int l = 0; l < c_.num_dec_ports; ++l) {
      in.dec_valid[l] = 0;
      in.pdec_valid[l] = 0;
      if (rng_.below(100) < dec_pct_) {
        const int o = pick(heads_);
        in.dec_valid[l] = 1;
        in.dec_port[l] = static_cast<uint16_t>(o);
        if (heads_[o] > 0) --heads_[o];
      }
      if (rng_.below(100) < dec_pct_) {
        const int g = pick(pheads_);
        in.pdec_valid[l] = 1;
        in.pdec_link[l] = static_cast<uint16_t>(g);
        if (pheads_[g] > 0) --pheads_[g];
      }
    }
    const int others = c_.num_group_routers - 1;
    const int sent_max = (1 << c_.sent_width) - 1;
    int used[64];
    int n_used = 0;
    for (int p = 0; p < c_.num_rx_ports; ++p) {
      in.rx_valid[p] = 0;
      if (!rng_.chance(1, 15)) continue;
      const int r = static_cast<int>(rng_.below(others));
      bool dup = false;
      for (int k = 0; k < n_used; ++k) dup |= used[k] == r;
      if (dup) continue;
      used[n_used++] = r;
      in.rx_valid[p] = 1;
      in.rx_router[p] = static_cast<uint16_t>(r);
      for (int g = 0; g < c_.num_global_links; ++g) {
        const bool busy = rng_.chance(1, 4);
        in.rx_partial[static_cast<size_t>(p) * c_.num_global_links + g] =
            static_cast<uint8_t>(busy ? rng_.range(0, sent_max) : rng_.range(0, 1));
      }
    }
  }

 private:
  // A slot with outstanding heads (legal decrement), or any slot now and then (illegal: the
  // counter must clamp at 0).
  int pick(const std::vector<int>& h) {
    const int n = static_cast<int>(h.size());
    if (!rng_.chance(1, 100)) {
      for (int t = 0; t < 4; ++t) {
        const int i = static_cast<int>(rng_.below(n));
        if (h[i] > 0) return i;
      }
    }
    return static_cast<int>(rng_.below(n));
  }
  ContentionCounters::Config c_;
  Rng rng_;
  std::vector<int> heads_, pheads_;
  uint64_t until_ = 0;
  uint64_t inc_pct_ = 0, dec_pct_ = 0;
  int hot_ = 0, hot_link_ = 0;
};

template <class M>
RunResult run_random(const std::string& params, uint64_t cycles, uint64_t seed, int mutation,
                     const std::string& vcd = "") {
  ContentionCounters ref(cc_config(Params(params)));
  ref.test_mutation = mutation;
  hw::VModel<M> dut(vcd);
  CcStimulus stim(ref.config(), seed);
  Rng reset_rng(seed ^ 0x5eed);
  auto in = ref.make_inputs();
  auto out = ref.make_outputs();
  Mismatch mm;
  RunResult res;
  dut.reset();
  ref.reset();
  for (uint64_t cycle = 0; cycle < cycles; ++cycle) {
    if (reset_rng.chance(1, 50000)) {
      dut.reset();
      ref.reset();
    }
    if (reset_rng.chance(1, 5000) && !reset_between_edges(dut, ref, [&] {
          ref.eval(out);
          compare(dut.m(), ref, out, cycle, mm);
          return !mm.found();
        }))
      break;
    stim.next(cycle, in);
    drive(dut.m(), ref, in);
    dut.eval();
    ref.eval(out);
    compare(dut.m(), ref, out, cycle, mm);
    if (mm.found()) break;
    const auto& c = ref.config();
    for (int o = 0; o < c.num_ports; ++o) {
      res.events += out.contended[o];
      res.cover["counter at its cap"] += out.count[o] == field_mask(c.counter_width);
    }
    bool inc_and_dec = false;  // one counter incremented and decremented in the same cycle
    for (int i = 0; i < c.num_inc_ports; ++i)
      for (int d = 0; d < c.num_dec_ports; ++d)
        inc_and_dec |= in.inc_valid[i] && in.dec_valid[d] && in.inc_port[i] == in.dec_port[d];
    res.cover["increment and decrement of one counter"] += inc_and_dec;
    res.cover["ECtN broadcast"] += out.bcast_valid;
    res.cover["combined count contended"] +=
        std::any_of(out.combined_contended.begin(), out.combined_contended.end(), [](uint8_t v) { return v != 0; });
    dut.rise();
    ref.step(in);
    res.cycles = cycle + 1;
  }
  res.mismatch = mm.found();
  if (res.mismatch) res.message = mm.describe() + " (seed " + std::to_string(seed) + ", " + params + ")";
  return res;
}

}  // namespace ccsim::tb::cc
