// CBCM's switch side (000 section IV-B1, spec A.5.2-A.5.4): per router and
// output port, the contention degree of every cycle, computed from the VC-
// allocation requests (Router::for_each_request), feeds the contention-degree
// block (tlm/blocks/contention_degree_unit.h, one per router covering all its
// outputs). An output whose moving-average metric exceeds 1 is congested.
//
// Routers step only when they hold flits, so each router's block is fed
// lazily: the sample of a busy cycle t is registered at its next use, the idle
// cycles in between count as zero samples (O(1) once the windows are empty),
// and a sample of cycle t affects packets from cycle t+1 on (the block's
// register stage). The per-input random pick (randomized degree) advances in
// busy cycles only: deterministic, not bit-identical to an always-clocked RTL.
#pragma once
#include <vector>

#include <memory>

#include "blocks/contention_degree_unit.h"
#include "congestion/protocol_context.h"
#include "core/types.h"
#include "hw/blocks.h"

namespace ccsim {

struct ContentionDegreeParams {
  bool weighted = false;         // D_cw (each input's requests share a weight of 1) instead of D_cr
  bool va_only = false;          // count only heads waiting for an output VC (spec A.11-#3)
  uint32_t ignored_classes = 0;  // bit c: requests of VC class c do not count
  int num_samples = 100, bound_sample_interval = 10, num_bound_samples = 10;  // N, B, M (000 IV-B1)
  // Early detection (000 VI-A): also a degree and metric per destination node
  // (the requests of packets towards it), in a second block per router.
  bool per_destination = false;
};

class ContentionDegreeMonitor {
 public:
  // Weighted degrees enter the integer block in fixed point: this many steps
  // per unit of contention, at most, and no more than 255 / radix.
  static constexpr int kMaxWeightSteps = 8;

  void build(ProtocolContext& net, const ContentionDegreeParams& p);
  // Records the requests of router `r` in cycle `now` (after its VC allocation).
  void sample(const SwitchView& r, Cycle now);
  // Output `port` of router `router` has sustained contention in cycle `now`.
  bool congested(int router, int port, Cycle now);
  // Per-destination metric (per_destination only): the packets towards node
  // `dst` have sustained contention at router `router` in cycle `now`.
  bool congested_towards(int router, int dst, Cycle now);
  // Steps of the fixed-point weighted degree per unit for a router of this radix (0: too wide).
  static int weight_steps(int radix) { return std::min(kMaxWeightSteps, 255 / radix); }

 private:
  // A contention-degree block fed lazily: the sample of cycle `next` waits in `pending` until
  // the block's next use; idle cycles in between are zero samples.
  struct FedUnit {
    std::unique_ptr<hw::ContentionDegree> unit;
    std::vector<uint8_t> pending;  // sample of cycle `next`, if pending_valid
    bool pending_valid = false;
    Cycle next = 0;  // first cycle not yet fed to the block
  };
  struct PerRouter {
    FedUnit out;  // per output; reference or RTL ([hardware] contention_degree)
    blocks::RequestSelector selector;
    int weight_steps = 1;
  };
  // Feeds every cycle before `now` into the block.
  void catch_up(FedUnit& f, Cycle now);
  // Adds input `in`'s requests (outputs in requests_) to the degree vector.
  void add_input(PerRouter& r, int in);

  ContentionDegreeParams p_;
  std::vector<PerRouter> routers_;
  // Early detection: per router the same block with one "output" per destination node (always
  // the reference); its degree of a destination counts the inputs whose picked request (the
  // same pick as for the output degree) holds a packet towards it.
  std::vector<FedUnit> dests_;     // per router, per_destination only
  std::vector<int> request_dsts_;  // destination of each entry of requests_, reused
  std::vector<double> dcw_dest_;   // weighted degree per destination, reused
  std::vector<uint8_t> zeros_;
  std::vector<int> requests_;  // outputs requested by one input, reused
  std::vector<double> dcw_;    // weighted degree per output, reused
};

}  // namespace ccsim
