// The time-averaged contention counter of a network over the measured window
// (002 VI-A: "the average value of the contention counters will equal the
// average number of VCs in the input ports" at saturation, which sets the
// threshold). The counters of all routers together count the input VCs whose
// front packet has not left yet, so one running total, integrated over time
// between its changes, gives the mean over every output port's counter. The
// integral is linear in the total: one instance per router, summed, gives the
// same integer as one for the network (so routers may count on their own threads).
#pragma once
#include <algorithm>
#include <cstdint>

#include "core/types.h"

namespace ccsim {

class ContentionCounterMean {
 public:
  // The window [start, end) and the number of counters averaged over (routers x ports).
  ContentionCounterMean(Cycle start, Cycle end, int64_t counters) : start_(start), end_(end), counters_(counters) {}

  // A counter moved by `delta` in cycle `now` (cycles never go back).
  void change(Cycle now, int delta) {
    integral_ += total_ * overlap(last_, now);
    last_ = std::max(last_, now);
    total_ += delta;
  }
  // The sum over the window's cycles of the total (which holds from the last change to its end).
  int64_t integral() const { return integral_ + total_ * overlap(last_, end_); }
  // The mean counter over the window.
  double mean() const { return mean_of(integral()); }
  // The mean counter of `integral`, the sum of integral() over instances that split the counters.
  double mean_of(int64_t integral) const {
    const Cycle span = end_ - start_;
    if (span <= 0 || counters_ <= 0) return 0.0;
    return static_cast<double>(integral) / (static_cast<double>(span) * counters_);
  }

 private:
  // Cycles of [from, to) inside the window.
  int64_t overlap(Cycle from, Cycle to) const {
    return std::max<Cycle>(0, std::min(to, end_) - std::max(from, start_));
  }

  Cycle start_, end_;
  int64_t counters_;
  int64_t total_ = 0;     // sum of all counters now
  int64_t integral_ = 0;  // sum over cycles of the window so far of total_
  Cycle last_ = 0;
};

}  // namespace ccsim
