// routing.deadlock = "recovery": Disha-style progressive deadlock recovery
// (Anjan & Pinkston, ISCA 1995; the recovery configuration of
// ../shared/papers/004 section 5.1, spec C.11), simplified.
//
// * Detection (in the router): a packet whose head has been at the front of an
//   input VC, past its pipeline delay, without an output VC for
//   routing.deadlock_timeout cycles (004: 8) is presumed deadlocked; heads
//   waiting for an ejection channel never are.
// * Exclusive access: one token circulates over all routers in id order, one
//   router per cycle (a side-band ring; Disha-sequential). A router with a
//   presumed-deadlocked head takes the token when it passes; only the token
//   holder may use the deadlock-free path, so one packet at a time recovers
//   in the whole network.
// * Recovery path: the rescued packet leaves its input VC into the router's
//   central deadlock buffer (DB) one flit per cycle as its flits arrive (they
//   keep following it through the normal VCs it holds upstream, whose credits
//   it now returns), and travels DB to DB along a minimal path to its
//   destination's NIC: each flit arrives the zero-load latency of a minimal
//   path (per hop its link latency plus router.latency, then the terminal
//   link) after it left the input VC.
//   The tail's delivery releases the token at the destination's router.
//
// Departures from Disha (docs/model.md): the DB lane is modelled as a delay
// line, not as buffers in each router on the path; its flits do not take
// cycles from the physical links or the ejection channel they would share
// (Disha gives them priority over normal flits); the DB holds a whole packet
// (Disha's DBs are flit-sized) and the lane is always free for the token
// holder, so recovery never waits inside the lane.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>

#include "core/fifo.h"
#include "core/packet.h"
#include "core/scheduler.h"

namespace ccsim {

class Network;

class DeadlockRecovery : public Component {
 public:
  DeadlockRecovery(Network& net, Cycle timeout);
  Cycle timeout() const { return timeout_; }
  // Router `router` asks for the token at `now`: true if it was free and is at
  // that router now (the caller then holds it).
  bool try_capture(int router, Cycle now);
  // A flit of rescued packet `p` leaves the input VC of `router` into its DB.
  void lane_flit(int router, Packet* p, bool tail, Cycle now);
  void step(Cycle now) override;

  int64_t flits_in_lane() const { return static_cast<int64_t>(lane_.size()); }
  template <typename F>
  void for_each_packet(F&& f) const {
    for (size_t i = 0; i < lane_.size(); ++i)
      if (lane_[i].tail) f(lane_[i].p);
  }
  nlohmann::json stats() const;

 private:
  Cycle path_delay(int from_router, int dst_node) const;
  struct LaneFlit {
    Cycle at;
    Packet* p;
    bool tail;
  };
  Network& net_;
  Cycle timeout_;
  bool held_ = false;
  int free_from_ = 0;     // router the token was released at
  Cycle free_since_ = 0;  // cycle it was released
  Fifo<LaneFlit> lane_;   // in arrival order (one packet at a time, fixed delay)
  int64_t rescues_ = 0, lane_flits_ = 0;
  Cycle held_cycles_ = 0, held_since_ = 0;
};

}  // namespace ccsim
