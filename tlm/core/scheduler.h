// Activity-driven stepping: a component is stepped only in cycles it was woken
// for (a flit arrives, it has buffered work, a message is generated). Idle
// routers and NICs cost nothing. A timing wheel holds the wake-ups; within a
// cycle components are stepped in wake order, which is deterministic. Traffic
// generation runs before the wheel in each cycle (see Network::run).
#pragma once
#include <cassert>
#include <cstdint>
#include <vector>

#include "core/types.h"

namespace ccsim {

class Component {
 public:
  virtual ~Component() = default;
  virtual void step(Cycle now) = 0;
  Cycle last_step = -1;  // guards against double stepping in one cycle
  Cycle last_wake = -1;  // cheap de-duplication of repeated wake-ups
};

class Scheduler {
 public:
  // The wheel spans the longest latency, up to 2^16 cycles; later wake-ups wait in far_.
  explicit Scheduler(int horizon) {
    size_t n = 1;
    while (n < static_cast<size_t>(horizon) + 2 && n < kMaxWheel) n <<= 1;
    wheel_.resize(n);
  }

  Cycle now() const { return now_; }

  // Wake c in cycle `at` (>= now). Wake-ups beyond the wheel horizon are kept aside.
  // A component already stepped in this cycle is stepped in the next: it missed
  // this one (a switch handed its NIC a control packet after the NIC's step).
  void wake(Component* c, Cycle at) {
    assert(at >= now_);
    if (at == now_ && c->last_step == now_) at = now_ + 1;
    if (c->last_wake == at) return;
    c->last_wake = at;
    if (at - now_ >= static_cast<Cycle>(wheel_.size())) {
      far_.push_back({at, c});
      return;
    }
    wheel_[at & (wheel_.size() - 1)].push_back(c);
    ++pending_;
  }
  // Steps everything due in the current cycle, then advances time by one.
  void run_cycle() {
    auto& bucket = wheel_[now_ & (wheel_.size() - 1)];
    // Components stepped now may wake others for this same cycle: index loop.
    for (size_t i = 0; i < bucket.size(); ++i) {
      Component* c = bucket[i];
      if (c->last_step == now_) continue;
      c->last_step = now_;
      c->step(now_);
    }
    pending_ -= bucket.size();
    bucket.clear();
    ++now_;
    if (!far_.empty()) refill_far();
  }

  // Cycles with nothing due can be skipped in one go.
  bool idle() const { return pending_ == 0 && far_.empty(); }
  Cycle next_due() const {
    for (Cycle t = now_; t < now_ + static_cast<Cycle>(wheel_.size()); ++t) {
      if (!wheel_[t & (wheel_.size() - 1)].empty()) return t;
    }
    Cycle best = INT64_MAX;
    for (auto& f : far_) best = f.at < best ? f.at : best;
    return best;
  }
  void skip_to(Cycle t) {
    assert(t >= now_);
    if (pending_ == 0) {
      // Nothing in the wheel: jump (far_ wake-ups are at or after t, as t <= next_due()).
      now_ = t;
      if (!far_.empty()) refill_far();
      return;
    }
    while (now_ < t) {
      if (!wheel_[now_ & (wheel_.size() - 1)].empty()) return;
      ++now_;
      if (!far_.empty()) refill_far();
    }
  }

 private:
  void refill_far() {
    for (size_t i = 0; i < far_.size();) {
      if (far_[i].at - now_ < static_cast<Cycle>(wheel_.size()) - 1) {
        Component* c = far_[i].c;
        Cycle at = far_[i].at;
        far_[i] = far_.back();
        far_.pop_back();
        wheel_[at & (wheel_.size() - 1)].push_back(c);
        ++pending_;
      } else {
        ++i;
      }
    }
  }
  static constexpr size_t kMaxWheel = size_t{1} << 16;
  struct Far {
    Cycle at;
    Component* c;
  };
  std::vector<std::vector<Component*>> wheel_;
  std::vector<Far> far_;
  int64_t pending_ = 0;
  Cycle now_ = 0;
};

}  // namespace ccsim
