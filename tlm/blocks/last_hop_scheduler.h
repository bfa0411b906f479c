// LastHopScheduler: bit-accurate C++ reference of rtl/ccsim_last_hop_scheduler.sv, the LHRP
// last-hop switch's per-endpoint queued-flit counters, speculative drop decision and
// reservation scheduler.
//
// Paper: ../shared/papers/003_4ae6273e4fa61935.txt, Sec. 3.2 (LHRP: "track the number of
// packets queued for each endpoint ... drop speculative messages", retransmission time from the
// reservation scheduler in the switch), 6.3 (queuing threshold), 6.4 (combined protocol).
// Spec:  ../shared/specs/cbcm-srp-smsrp-lhrp-ecn.md B.9, B.10.4, B.11.1, B.14 #10-#13.
//
// Per endpoint e: queued(e) counts flits in the switch for e (enqueue(e, flits) when flits are
// written, dequeue(e, flits) when ejected; applied at tick(), clamped to [0, 2^count_width-1]).
// should_drop(e): queued(e) >= drop_threshold (registered value at the start of the cycle;
// threshold_strict uses >). reserve(e, size, now) returns the grant time and advances
// next_free(e) to its end: several reservations in one cycle are served in call order (the RTL's
// lane order) back to back, the first at max(now, next_free(e)), each later one where the one
// before it ends. Sizes must fit in size_width bits (16 by default). Times are time_width-bit
// unsigned (they wrap after 2^time_width cycles; a cycle's later grants add modulo 2^time_width).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ccsim::blocks {

class LastHopScheduler {
 public:
  // Parameters; the same names as the RTL parameters.
  struct Config {
    int num_endpoints = 4;          // endpoints attached to the switch (p)            [paper]
    int num_req_ports = 15;         // RTL drop/reservation request lanes per cycle     [ours]
    int num_enq_ports = 15;         // RTL flit-write report lanes per cycle            [ours]
    int num_deq_ports = 4;          // RTL ejection report lanes per cycle              [ours]
    int count_width = 16;           // queued-flit counter bits, saturating             [ours]
    int drop_threshold = 1000;      // theta, flits                                    [paper]
    bool threshold_strict = false;  // false: drop at >= theta (6.3), true: > (3.2)     [ours]
    int time_width = 32;            // grant time / next_free bits                      [ours]
    int size_width = 16;            // request size bits (flits)                        [ours]
    int flits_width = 5;            // flits per enqueue/dequeue report bits            [ours]
  };

  // Cycle-level interface (mirrors the RTL ports).
  struct Inputs {
    uint64_t now = 0;
    std::vector<uint8_t> req_valid, req_spec;
    std::vector<uint32_t> req_ep, req_size;
    std::vector<uint8_t> enq_valid;
    std::vector<uint32_t> enq_ep, enq_flits;
    std::vector<uint8_t> deq_valid;
    std::vector<uint32_t> deq_ep, deq_flits;
  };
  struct Outputs {
    std::vector<uint8_t> drop, grant_valid;
    std::vector<uint64_t> grant_time;
    std::vector<uint32_t> queued;
    std::vector<uint64_t> next_free;
  };
  // Result of a speculative head arriving at the last-hop switch.
  struct Decision {
    bool drop;            // drop it and send a NACK carrying grant_time
    uint64_t grant_time;  // retransmission time (valid if drop)
  };

  LastHopScheduler();  // paper/default parameters
  explicit LastHopScheduler(const Config& config);
  const Config& config() const { return cfg_; }
  int ep_width() const;

  Inputs make_inputs() const;
  Outputs make_outputs() const;
  void reset();
  // Outputs of this cycle given its inputs (drop/grant are combinational). No state change.
  void eval(const Inputs& in, Outputs& out) const;
  void step(const Inputs& in);  // rising edge

  // ---- Network-model interface (hot path: no allocation). Any number of calls per cycle,
  // then one tick().
  void enqueue(int e, uint32_t flits) { added_[e] += flits; }
  void dequeue(int e, uint32_t flits) { removed_[e] += flits; }
  bool should_drop(int e) const;
  // Reservation (dropped speculative packet, or SRP reservation request): grant time.
  uint64_t reserve(int e, uint32_t size, uint64_t now);
  // A speculative head of `size` flits for e arrives: drop + reserve if should_drop(e).
  Decision speculative_head(int e, uint32_t size, uint64_t now) {
    if (!should_drop(e)) return {false, 0};
    return {true, reserve(e, size, now)};
  }
  void tick();

  uint32_t queued(int e) const { return queued_[e]; }
  uint64_t next_free(int e) const { return next_free_[e]; }  // as registered (RTL next_free_o)

  // Test-only hook: nonzero drops one flit below the threshold (queued + 1 >= theta), so that
  // tb/ can show the RTL-vs-reference comparison detects a wrong reference.
  int test_mutation = 0;

 private:
  bool over_threshold(uint32_t queued) const;

  Config cfg_;
  uint64_t count_max_, time_mask_, size_mask_, flits_mask_;
  std::vector<uint32_t> queued_;
  std::vector<uint64_t> next_free_;    // registered
  std::vector<uint64_t> next_free_d_;  // with this cycle's reservations
  std::vector<uint64_t> added_, removed_;
  std::vector<bool> reserved_;  // reserve() called for e this cycle
};

}  // namespace ccsim::blocks
