// sim.threads: the routers due in a cycle step on a team of threads.
//
// Links take at least a cycle, so what one router does in a cycle reaches no
// other router before the next: the routers of a cycle are independent,
// provided each touches only itself and its links. A cycle's routers step in
// two phases (every receive(), then every forward(): a link is then never
// taken from and sent on at once), on any number of threads; their wake-ups
// and flit-hop counts are handed to the scheduler afterwards in the batch's
// order, which does not depend on the thread count. NICs step after them
// (parallel_nics.h); traffic and everything else on the calling thread.
// Results are therefore byte-identical for every thread count.
//
// Each router steps on its home thread, the same in every cycle (contiguous
// ranges of routers, so a group's local links stay on one core): its state
// stays in that core's cache instead of moving between cores with the batch.
//
// Whatever reads or writes beyond its router while routers step (UGAL-G's
// remote queues, protocols acting in the switches, deadlock recovery's token,
// the packet trace, router.occupancy = "downstream") keeps the routers on one
// thread: obstacle() names it.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/batch_by_home.h"
#include "core/router.h"
#include "core/scheduler.h"
#include "core/thread_team.h"

namespace ccsim {

class CongestionControl;
class RoutingFunction;

class ParallelRouters {
 public:
  // Why this run's routers cannot step in parallel, or "" when they can.
  static std::string obstacle(const Config& cfg, const RoutingFunction& routing, const CongestionControl& cc,
                              bool tracing);
  // Steps `routers` with `threads` threads from now on (they defer their shared effects).
  ParallelRouters(int threads, const std::vector<std::unique_ptr<Router>>& routers);
  int threads() const { return team_.size(); }
  ThreadTeam& team() { return team_; }  // the NICs step on it too (parallel_nics.h)
  // Steps the routers of `batch` in cycle `now`, hands their wake-ups to `sched`
  // and returns the flit-hops they made.
  int64_t step(const std::vector<Router*>& batch, Scheduler& sched, Cycle now);

 private:
  ThreadTeam team_;
  BatchByHome split_;
  std::vector<DeferredEffects> deferred_;         // per home thread: what its routers held back
  std::vector<DeferredEffects::Range> wakes_of_;  // per router of the batch: its wake-ups on its home's list
};

}  // namespace ccsim
