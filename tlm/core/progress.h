// A progress line for long runs on a terminal: simulated cycle, cycles/s and an ETA on stderr,
// rewritten in place about twice a second once a run has taken two seconds. Silent when stderr
// is not a terminal (pipes, CI logs, the reproduction runner) and cleared when the run ends.
#pragma once
#include <chrono>

#include "core/types.h"

namespace ccsim {

class Progress {
 public:
  // `end`: the last cycle of the measured window (the drain after it is open-ended).
  explicit Progress(Cycle end);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  // Called every cycle of the loop: one test when stderr is no terminal.
  void update(Cycle now) {
    if (enabled_) show(now);
  }

 private:
  void show(Cycle now);
  using Clock = std::chrono::steady_clock;
  bool enabled_;
  bool shown_ = false;
  Cycle end_;
  Clock::time_point start_, next_;
};

}  // namespace ccsim
