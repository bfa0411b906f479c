// TokenThrottler: bit-accurate C++ reference of rtl/ccsim_token_throttler.sv, the CBCM source-NIC
// injection throttling (Algorithm 1) with the unthrottle decision.
//
// Paper: ../shared/papers/000_4abd1b2c8ca2b731.txt, Sec. IV-B3 (Algorithm 1), IV-B4
// (unthrottling decision), V-D (source interface hardware).
// Spec:  ../shared/specs/cbcm-srp-smsrp-lhrp-ecn.md A.5.6, A.5.7, A.8.4.
//
// Exact integer tokens: per throttled destination a counter c = D_t * t; +1 per cycle; a packet
// of S flits is eligible iff c >= S*D_t and its injection subtracts S*D_t. A throttle receipt
// resets c to 0 (so the first S-flit packet may go S*D_t cycles later) and restarts the source
// epoch. After each epoch of src_epoch cycles, if the source queue was never full and
// generated_flits * D_t < src_epoch (rate < 1/D_t), the entry is freed and an unthrottle
// event is reported (the NIC then sends the UNTHROTTLE control packet).
//
// Sizes are packet sizes in flits and must fit in size_width bits (< 64 by default; CBCM
// packets are 32 flits); destination ids must fit in dest_width bits. The RTL truncates wider
// values, so does the reference (assert in debug builds).
// Per cycle, in any order: throttle() (at most one per cycle), can_inject() (any number),
// inject() (at most one), generated(), queue_full(), nic_queue_full(); then tick().
// Within a cycle, a throttle() of dest happens first (Algorithm 1 line 6-7): can_inject(dest)
// is false after it, and that cycle's events for dest are ignored.
// If all num_entries entries are in use, a throttle of a new destination is dropped and
// counted (overflows()); the destination stays unthrottled (our default, spec A.8.4).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ccsim::blocks {

class TokenThrottler {
 public:
  // Parameters; the same names as the RTL parameters. None are given by the paper.
  struct Config {
    int num_entries = 16;     // T throttled destinations                               [ours]
    int dest_width = 11;      // destination id bits (1056 nodes)                        [ours]
    int dt_width = 11;        // throttling degree bits                                  [ours]
    int size_width = 6;       // packet size bits (flits)                                [ours]
    int token_width = 32;     // scaled token counter bits, saturating (token cap)       [ours]
    int src_epoch = 10000;    // source epoch for the generation rate, cycles            [ours]
    int num_query_ports = 1;  // RTL eligibility query ports (C++: any number of calls)  [ours]
    int num_gen_ports = 1;    // RTL generation report lanes                             [ours]
    int num_full_ports = 1;   // RTL per-destination queue-full lanes                     [ours]
    // RTL KeepEpochOnUpdate: a throttle of an already throttled destination (a new D_t)
    // resets its tokens but keeps its source epoch running. Restarting it on every update lets
    // no source unthrottle while its D_t changes more often than once per src_epoch.
    bool keep_epoch_on_update = false;
    // C++ only (the RTL has 1 and 1): tokens grow by token_increment per cycle and a packet
    // costs S*D_t*cost_scale, a rate of token_increment/(cost_scale*D_t) flits/cycle; 99 and
    // 100 give the shared-VC variant's 0.99/D_t (000 Sec. VI-B).
    int token_increment = 1;
    int cost_scale = 1;
  };

  // Cycle-level interface (mirrors the RTL ports).
  struct Inputs {
    uint8_t throttle_valid = 0;
    uint32_t throttle_dest = 0, throttle_dt = 0;
    std::vector<uint32_t> query_dest, query_size;
    uint8_t inject_valid = 0;
    uint32_t inject_dest = 0, inject_size = 0;
    std::vector<uint8_t> gen_valid;
    std::vector<uint32_t> gen_dest, gen_size;
    std::vector<uint8_t> full_valid;
    std::vector<uint32_t> full_dest;
    uint8_t nic_full = 0;
  };
  struct Outputs {
    std::vector<uint8_t> query_eligible, query_throttled;
    uint8_t inject_ok = 0;
    std::vector<uint8_t> entry_valid;
    std::vector<uint32_t> entry_dest, entry_dt;
    std::vector<uint64_t> entry_tokens;
    std::vector<uint32_t> entry_gen, entry_epoch;
    std::vector<uint8_t> entry_full;
    std::vector<uint8_t> unthrottle;
    uint8_t overflow = 0;
  };

  TokenThrottler();  // paper/default parameters
  explicit TokenThrottler(const Config& config);
  const Config& config() const { return cfg_; }
  int epoch_width() const { return gen_width_; }  // RTL EpochWidth == GenWidth
  int gen_width() const { return gen_width_; }

  Inputs make_inputs() const;
  Outputs make_outputs() const;
  void reset();
  // Outputs of this cycle given its inputs (query results, inject_ok, unthrottle, overflow are
  // combinational in the RTL). Does not change state.
  void eval(const Inputs& in, Outputs& out) const;
  void step(const Inputs& in);  // rising edge

  // ---- Network-model interface (hot path: no allocation).
  // Throttle control packet from dest with throttling degree dt (>= 1). Returns false if a
  // throttle was already received this cycle (the RTL takes one per cycle).
  bool throttle(uint32_t dest, uint32_t dt);
  // May a packet of `flits` flits to dest be injected now? (no side effect)
  bool can_inject(uint32_t dest, uint32_t flits) const;
  // Inject a packet; returns false (and charges nothing) if it was not eligible or an
  // injection was already made this cycle.
  bool inject(uint32_t dest, uint32_t flits);
  // A packet of `flits` flits to dest was generated (queued at the source) this cycle.
  void generated(uint32_t dest, uint32_t flits);
  // The source queue towards dest / the whole NIC queue was full this cycle.
  void queue_full(uint32_t dest);
  void nic_queue_full() { pending_nic_full_ = true; }
  // End of cycle. Returns the number of unthrottle events of this cycle (see unthrottled()).
  int tick();
  // Destinations unthrottled by the last tick(): unthrottled(k), k < num_unthrottled().
  int num_unthrottled() const { return n_unthrottled_; }
  uint32_t unthrottled(int k) const { return unthrottled_[k]; }

  bool is_throttled(uint32_t dest) const { return find(dest) >= 0; }
  uint32_t throttling_degree(uint32_t dest) const;  // 0 if not throttled
  uint64_t tokens_scaled(uint32_t dest) const;      // c = D_t * t, 0 if not throttled
  uint64_t overflows() const { return overflows_; }
  int num_throttled() const;

  // Test-only hook: nonzero makes tokens eligible one cycle early (c + 1 >= S*D_t), so that
  // tb/ can show the RTL-vs-reference comparison detects a wrong reference.
  int test_mutation = 0;

 private:
  int find(uint32_t dest) const;                        // entry index or -1
  int throttle_target(uint32_t dest, bool* hit) const;  // entry a throttle of dest would take
  bool eligible(uint32_t dest, uint32_t flits) const;
  bool eligible_with(uint32_t dest, uint32_t flits, bool throttle_now, uint32_t throttle_dest,
                     uint32_t throttle_dt) const;
  bool unthrottle_rule(int i) const;

  Config cfg_;
  int gen_width_;
  uint64_t token_max_, gen_max_, dest_mask_, dt_mask_, size_mask_;
  std::vector<uint8_t> valid_, full_;
  std::vector<uint32_t> dest_, dt_, gen_, epoch_;
  std::vector<uint64_t> tokens_;
  // Pending events of the current cycle.
  bool pending_throttle_ = false;
  uint32_t pending_throttle_dest_ = 0, pending_throttle_dt_ = 0;
  int pending_throttle_entry_ = -1;  // entry it takes, -1 = overflow
  bool pending_inject_ = false;
  int pending_inject_entry_ = -1;
  uint64_t pending_inject_cost_ = 0;
  std::vector<uint32_t> pending_gen_;  // flits per entry this cycle (matched against dest_)
  std::vector<uint8_t> pending_full_;
  bool pending_nic_full_ = false;
  std::vector<uint32_t> unthrottled_;
  int n_unthrottled_ = 0;
  int n_valid_ = 0;  // entries in use
  uint64_t overflows_ = 0;
};

}  // namespace ccsim::blocks
