// UGAL's decision rule, shared by every topology (Singh's thesis; papers 002
// IV, 003 4, 000 V): a packet takes the minimal path iff its estimated
// queueing delay is at most the Valiant path's plus a bias towards minimal.
// With the queue q of a path's first channel only (UGAL-L), the estimate is
// q x hops; with more of the path's queues known (UGAL-G), see each topology.
#pragma once
#include "core/params.h"

namespace ccsim {

// Delays in flits.
inline bool ugal_prefers_minimal(int delay_min, int delay_nm, int threshold) {
  return delay_min <= delay_nm + threshold;
}

inline ParamSpec ugal_threshold_param() {
  return int_param("routing.ugal_threshold", 30,
                   "UGAL bias towards the minimal path (flits): minimal iff its estimated queueing delay <= the "
                   "Valiant path's + threshold (UGAL-L: first queue x hops)",
                   -(1 << 24), 1 << 24);  // far beyond any queue, and no overflow when added to a delay
}

}  // namespace ccsim
