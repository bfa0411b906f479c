#include "congestion/hill_climb_tuner.h"

#include <algorithm>

namespace ccsim {

HillClimbTuner::Action HillClimbTuner::tune(int64_t tp, int64_t full, bool throttled) {
  Action a = Action::None;
  if (p_.local_max && tp > max_) {
    max_ = tp;
    n_max_ = full;
    t_max_ = threshold_;
  }
  if (p_.local_max && max_ > 0 && static_cast<double>(tp) < p_.significant_fraction * static_cast<double>(max_)) {
    threshold_ = std::min(t_max_, n_max_);
    a = Action::ResetToMax;
    ++max_resets;
    if (++consecutive_ >= p_.resets) {
      max_ = 0;
      consecutive_ = 0;
      ++max_forgotten;
    }
  } else {
    consecutive_ = 0;
    const bool drop = previous_ >= 0 && static_cast<double>(tp) < p_.drop_fraction * static_cast<double>(previous_);
    if (drop) {
      threshold_ = std::max<int64_t>(0, threshold_ - p_.decrement);
      a = Action::Decrement;
      ++decrements;
    } else if (throttled) {
      threshold_ = std::min(p_.total, threshold_ + p_.increment);
      a = Action::Increment;
      ++increments;
    }
  }
  previous_ = tp;
  return a;
}

}  // namespace ccsim
