// congestion.protocol = "alo": At-Least-One (Baydal, Lopez, Duato, IPDPS 2000;
// the comparison scheme of ../shared/papers/004 section 5.1, spec C.10). A
// node estimates congestion from its own router only: a new packet may start
// when every useful output channel of the node's router has at least one
// free VC, or when some useful channel has all its VCs free. Useful: a
// router-to-router channel that brings the packet one hop closer to its
// destination (minimal routing). Free VC (congestion.alo_free_vc): "unheld",
// ALO's "not assigned to any message" (no packet holds it: a wormhole VC is
// released when the tail passes), or "drained", stricter: also its output
// queue and its downstream buffer empty (all credits back). Only the data VCs
// count; a packet for the node's own router is never held back. Any topology.
#pragma once
#include <vector>

#include "congestion/congestion_control.h"

namespace ccsim {

class Alo : public CongestionControl {
 public:
  explicit Alo(bool drained) : drained_(drained) {}
  void attach(ProtocolContext& net) override;
  bool may_inject(NicView& nic, Packet& p, Cycle now) override;
  bool sources_read_switches() const override { return true; }
  nlohmann::json stats() const override;

 private:
  struct Neighbour {
    int port, router;
  };
  std::vector<std::vector<Neighbour>> neighbours_;  // per router: its router-to-router ports
  // Per router, computed once per cycle (NICs ask for every waiting destination):
  // bit i set when neighbour i's channel has at least one free VC / all VCs free.
  struct State {
    Cycle at = -1;
    uint32_t one_free = 0, all_free = 0;
  };
  std::vector<State> state_;
  bool drained_ = false;  // congestion.alo_free_vc = "drained"
  int64_t checks_ = 0, held_ = 0;
};

}  // namespace ccsim
