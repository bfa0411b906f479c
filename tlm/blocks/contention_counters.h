// ContentionCounters: bit-accurate C++ reference of rtl/ccsim_contention_counters.sv, the per-output
// contention counters of contention-based adaptive routing (Base/Hybrid) and the ECtN partial
// and combined arrays.
//
// Paper: ../shared/papers/002_2c774bb3d32a0357.txt, Sec. III-B (Base), III-C (Hybrid),
// III-D / IV-A (ECtN), VI-B (4-bit broadcast values, hardware cost).
// Spec:  ../shared/specs/qcn-switch-contention-counters-selftuned.md B.3, B.5, B.8.
//
// Per cycle the router reports increments (a packet header reached the head of an input VC:
// increment(min_out)) and decrements (its tail left the input buffer: decrement(min_out)), and
// for ECtN the same for packets entering the group towards a remote group
// (partial_increment(link) / partial_decrement(link)). tick() ends the cycle. Counters move by
// (#inc - #dec) per cycle, clamped to [0, 2^width - 1]; new values are visible after tick()
// (one register stage, as the RTL). contended(o) = count(o) >= threshold.
// ECtN: broadcast_due() is true every broadcast_period cycles (first in cycle 0); then
// broadcast_partial() gives the partial array saturated to sent_width bits, to deliver to the
// other routers of the group (receive_partial(router, values) there). combined(l) = own exact
// partial + sum of the last received arrays; combined_contended(l) = combined(l) >= threshold.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ccsim::blocks {

class ContentionCounters {
 public:
  // Parameters; the same names as the RTL parameters.
  struct Config {
    int num_ports = 31;           // output ports                                   [paper]
    int num_inc_ports = 4;        // RTL increment lanes per cycle                   [ours]
    int num_dec_ports = 4;        // RTL decrement lanes per cycle                   [ours]
    int counter_width = 7;        // counter bits, saturating                        [ours]
    int threshold = 6;            // th (Base/ECtN 6, Hybrid 7)                      [paper]
    int num_global_links = 128;   // ECtN counters per array                         [paper]
    int num_group_routers = 16;   // a, routers per group                            [paper]
    int partial_width = 6;        // own partial counter bits, saturating            [ours]
    int sent_width = 4;           // broadcast value bits, saturating                [paper]
    int broadcast_period = 100;   // cycles between broadcasts                       [paper]
    int combined_threshold = 10;  // combined counter threshold                      [paper]
    int num_rx_ports = 1;         // received arrays per cycle                       [ours]
  };

  // Cycle-level interface (mirrors the RTL ports; lane arrays sized by the config).
  struct Inputs {
    std::vector<uint8_t> inc_valid;
    std::vector<uint16_t> inc_port;
    std::vector<uint8_t> dec_valid;
    std::vector<uint16_t> dec_port;
    std::vector<uint8_t> pinc_valid;
    std::vector<uint16_t> pinc_link;
    std::vector<uint8_t> pdec_valid;
    std::vector<uint16_t> pdec_link;
    std::vector<uint8_t> rx_valid;
    std::vector<uint16_t> rx_router;
    std::vector<uint8_t> rx_partial;  // num_rx_ports * num_global_links values
  };
  struct Outputs {
    std::vector<uint16_t> count;
    std::vector<uint8_t> contended;
    std::vector<uint16_t> partial;
    std::vector<uint16_t> combined;
    std::vector<uint8_t> combined_contended;
    uint8_t bcast_valid = 0;
    std::vector<uint8_t> bcast_partial;
  };

  ContentionCounters();  // paper/default parameters
  explicit ContentionCounters(const Config& config);
  const Config& config() const { return cfg_; }
  // RTL widths.
  int port_width() const;
  int link_width() const;
  int router_width() const;
  int combined_width() const { return combined_width_; }

  Inputs make_inputs() const;
  Outputs make_outputs() const;
  void reset();
  void eval(Outputs& out) const;  // outputs depend on registered state only
  void step(const Inputs& in);    // rising edge (lanes -> the calls below, then tick())

  // ---- Network-model interface (hot path: no allocation). Any number of calls per cycle
  // (the RTL needs num_inc_ports/num_dec_ports lanes for as many), then one tick().
  void increment(int min_out);
  void decrement(int min_out);
  void partial_increment(int global_link);
  void partial_decrement(int global_link);
  // Partial array from another router of the group (router in [0, num_group_routers-2]
  // numbers the *other* routers), values[num_global_links] of sent_width bits. At most
  // num_rx_ports per cycle, distinct routers; returns false (ignored) beyond that.
  bool receive_partial(int router, const uint8_t* values);
  void tick();

  int count(int o) const { return count_[o]; }
  bool contended(int o) const { return count_[o] >= cfg_.threshold; }
  int partial(int l) const { return partial_[l]; }
  int combined(int l) const { return partial_[l] + rx_sum_[l]; }
  bool combined_contended(int l) const { return combined(l) >= cfg_.combined_threshold; }
  bool broadcast_due() const { return timer_ == 0; }
  // The array to broadcast (own partial saturated to sent_width bits); out[num_global_links].
  void broadcast_partial(uint8_t* out) const;
  const uint8_t* received_partial(int router) const {
    return &rx_mem_[static_cast<size_t>(router) * cfg_.num_global_links];
  }

  // Test-only hook: nonzero makes contended() use > instead of >= in eval(), so that tb/ can
  // show the RTL-vs-reference comparison detects a wrong reference.
  int test_mutation = 0;

 private:
  Config cfg_;
  int combined_width_;
  uint32_t count_max_, partial_max_, sent_max_;
  std::vector<uint16_t> count_, partial_, rx_sum_;
  std::vector<uint8_t> rx_mem_, rx_seen_;
  int timer_ = 0;
  // Pending events of the current cycle, with dirty lists so tick() costs O(activity).
  std::vector<uint16_t> inc_n_, dec_n_, pinc_n_, pdec_n_;
  std::vector<uint16_t> dirty_ports_, dirty_links_;
  std::vector<uint8_t> port_dirty_, link_dirty_;
  int n_dirty_ports_ = 0, n_dirty_links_ = 0;
  std::vector<uint8_t> rx_pending_;  // num_rx_ports * num_global_links
  std::vector<uint16_t> rx_pending_router_;
  int n_rx_pending_ = 0;
};

}  // namespace ccsim::blocks
