// sim.threads: the NICs due in a cycle step on the routers' team of threads.
//
// A NIC's step touches its own queues and its two links, except for what it
// hands the network: ejected flits and delivered packets (statistics, the
// packet ledger, the ACKs a delivery creates), flit counts and wake-ups. Its
// step is cut in four phases (Nic::take_arrivals, deliver_arrivals, send,
// wake_if_busy): the first, third and fourth on the threads (each NIC on its
// router's home thread), the second on the calling thread in the batch's order,
// and the wake-ups they hold back are then handed over in that order. Each NIC still delivers before it sends, and
// every shared effect happens in the order of the serial step, so results are byte-identical for every thread count.
//
// A protocol that acts when a packet is injected (rate limits, tokens) and
// traffic that reacts to deliveries (traffic.motif) keep the NICs on one thread:
// obstacle() names them. NICs step in parallel only beside parallel routers, so
// the routers' obstacles (the packet trace among them) hold them too.
#pragma once
#include <string>
#include <vector>

#include "core/batch_by_home.h"
#include "core/nic.h"
#include "core/thread_team.h"

namespace ccsim {

class Config;
class CongestionControl;

class ParallelNics {
 public:
  // Why this run's NICs cannot step in parallel, or "" when they can.
  static std::string obstacle(const Config& cfg, const CongestionControl& cc, bool motifs);
  // Steps `nics` on `team` from now on.
  ParallelNics(ThreadTeam& team, const std::vector<Nic*>& nics);
  // Steps the NICs of `batch` in cycle `now`, hands their wake-ups to `sched` and
  // returns the flits they injected.
  int64_t step(const std::vector<Nic*>& batch, Scheduler& sched, Cycle now);

 private:
  ThreadTeam& team_;
  BatchByHome split_;
  std::vector<DeferredEffects> deferred_;  // per home thread: what its NICs held back
  // Per NIC of the batch: where on its home's list the wake-ups of its deliveries and of
  // its sending are.
  std::vector<DeferredEffects::Range> delivery_wakes_, send_wakes_;
};

}  // namespace ccsim
