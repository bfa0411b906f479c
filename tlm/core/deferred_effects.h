// What routers and NICs stepping in parallel (parallel_routers.h,
// parallel_nics.h) hold back instead of touching the shared scheduler and
// counters: the wake-ups they make (by scheduler slot, in the order made) and
// their flit-hops (a NIC's: the flits it injects). One per thread, so a thread's
// components append to one contiguous list that the calling thread then reads
// in order.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/scheduler.h"
#include "core/types.h"

namespace ccsim {

struct DeferredEffects {
  std::vector<std::pair<int32_t, Cycle>> wakes;
  int64_t hops = 0;
  struct Range {  // one component's wake-ups on the list
    size_t first, count;
  };
  // Hands the wake-ups of range r to the scheduler, in the order they were made.
  void hand_over(const Range& r, Scheduler& sched) const {
    for (size_t k = r.first; k < r.first + r.count; ++k) sched.wake_slot(wakes[k].first, wakes[k].second);
  }
};

}  // namespace ccsim
