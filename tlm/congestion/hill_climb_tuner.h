// The self-tuning of 004 section 4 (spec C.7-C.9): hill climbing on the
// global delivered throughput, once per tuning period, of the threshold of
// full VC buffers above which sources stop injecting new packets.
//
// Table 1 (the decision table):
//   throughput drop > 25%?  throttling: yes   throttling: no
//   yes                     decrement         decrement
//   no                      increment         no change
// "Drop" means the period's throughput is below `drop_fraction` (75%) of the
// previous period's. Steps are additive: +increment, -decrement (1% and 4% of
// all buffers), starting at `initial` (1%); the threshold stays in [0, total].
//
// Local-maximum avoidance (section 4.2): the tuner remembers the best period
// throughput (max) and the full-buffer count N_max and threshold T_max of
// that period. A period whose throughput is below `significant_fraction` of
// max (ours: 75%, "drops significantly below") sets the threshold to
// min(T_max, N_max) instead of consulting Table 1 (ours: the escape has
// priority); after `resets` such resets in a row, max is forgotten (reset to
// 0) and the search starts over.
//
// The class is independent of the network so a test can feed it a scripted
// throughput sequence.
#pragma once
#include <cstdint>

namespace ccsim {

struct TunerParams {
  int64_t total = 3072;     // all VC buffers of the network
  int64_t initial = 30;     // first threshold
  int64_t increment = 30;   // +1% of total
  int64_t decrement = 122;  // -4% of total
  double drop_fraction = 0.75;
  double significant_fraction = 0.75;
  int resets = 5;         // r
  bool local_max = true;  // section 4.2 on
};

class HillClimbTuner {
 public:
  enum class Action { None, Increment, Decrement, ResetToMax };

  explicit HillClimbTuner(const TunerParams& p) : p_(p), threshold_(p.initial) {}

  // One tuning decision: `throughput` delivered in the period that just ended,
  // `full_buffers` the latest global count, `throttled` whether sources were
  // throttled during the period. Returns what was done; threshold() is the new value.
  Action tune(int64_t throughput, int64_t full_buffers, bool throttled);

  int64_t threshold() const { return threshold_; }
  int64_t max_throughput() const { return max_; }
  int64_t t_max() const { return t_max_; }
  int consecutive_resets() const { return consecutive_; }
  // Counters for the results.
  int64_t increments = 0, decrements = 0, max_resets = 0, max_forgotten = 0;

 private:
  TunerParams p_;
  int64_t threshold_;
  int64_t previous_ = -1;  // no previous period yet
  int64_t max_ = 0, n_max_ = 0, t_max_ = 0;
  int consecutive_ = 0;
};

}  // namespace ccsim
