// Activity-driven stepping: a component is stepped only in cycles it was woken
// for (a flit arrives, it has buffered work, a message is generated). Idle
// routers and NICs cost nothing. A timing wheel holds the wake-ups; within a
// cycle components are stepped in wake order, which is deterministic. Traffic
// generation runs before the wheel in each cycle (see Network::run).
#pragma once
#include <cassert>
#include <cstdint>
#include <iterator>
#include <map>
#include <set>
#include <vector>

#include "core/types.h"

namespace ccsim {

class Component {
 public:
  virtual ~Component() = default;
  virtual void step(Cycle now) = 0;
  // Asks the cache for the state step() reads first; called one component ahead of its
  // step, so that the misses of consecutive components overlap.
  virtual void prefetch() const {}
  Cycle last_step = -1;  // guards against double stepping in one cycle
  int32_t slot = -1;     // its place in the scheduler's dense arrays (Scheduler::enroll)
  // Stepped in a cycle's parallel batch (sim.threads) rather than in wake order, and as which.
  enum class Batch : uint8_t { None, Router, Nic };
  Batch batch = Batch::None;
  // Its thread in those batches: always the same one, so its state stays in that core's cache.
  uint16_t home = 0;
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

  // Gives c its slot (once): the scheduler keeps each component's last wake-up in a dense
  // array by slot, so a wake-up by slot reads no field of the component (one cache miss per
  // wake-up otherwise: with threads, most of the serial hand-over of a batch's wake-ups).
  // Links carry their downstream component's slot.
  int32_t enroll(Component* c) {
    if (c->slot < 0) {
      c->slot = static_cast<int32_t>(comps_.size());
      comps_.push_back(c);
      last_wake_.push_back(-1);
    }
    return c->slot;
  }

  // Wake c in cycle `at` (>= now). Wake-ups beyond the wheel horizon are kept aside.
  // A component already stepped in this cycle is stepped in the next: it missed
  // this one (a switch handed its NIC a control packet after the NIC's step).
  // Repeated wake-ups for one cycle count once.
  void wake(Component* c, Cycle at) { wake_slot(enroll(c), at); }
  void wake_slot(int32_t slot, Cycle at) {
    assert(at >= now_);
    Component* c = comps_[slot];
    if (at == now_ && c->last_step == now_) at = now_ + 1;
    if (last_wake_[slot] == at) return;
    last_wake_[slot] = at;
    if (at - now_ >= static_cast<Cycle>(wheel_.size())) {
      far_at_[at].insert(far_.size());
      far_.push_back({at, c});
      return;
    }
    wheel_[at & (wheel_.size() - 1)].push_back(c);
    ++pending_;
  }
  // Steps everything due in the current cycle, then advances time by one.
  void run_cycle() {
    auto& bucket = wheel_[now_ & (wheel_.size() - 1)];
    // Components stepped now may wake others for this same cycle: index loop. Before each step
    // the scheduler asks for the object two ahead and the state of the next one (whose object
    // it asked for one step ago), unless that one has stepped already: a router is in a bucket
    // once per link delivering to it then and once for its own work, and only its first entry
    // steps.
    for (size_t i = 0; i < bucket.size(); ++i) {
      if (i + 2 < bucket.size()) __builtin_prefetch(bucket[i + 2]);
      if (i + 1 < bucket.size() && bucket[i + 1]->last_step != now_) bucket[i + 1]->prefetch();
      step_once(bucket[i]);
    }
    finish_cycle(bucket);
  }

  // run_cycle() for parallel stepping: the components due now that step in a
  // batch are handed to `batch(list)` together (it steps them and hands
  // back their wake-ups, which are for later cycles), the others are stepped
  // one by one in wake order after them; components woken for this cycle by
  // those form the next batch and round.
  template <typename Batch>
  void run_cycle(Batch&& batch) {
    auto& bucket = wheel_[now_ & (wheel_.size() - 1)];
    for (size_t i = 0; i < bucket.size();) {
      const size_t end = bucket.size();
      batch_.clear();
      for (size_t k = i; k < end; ++k) {
        Component* c = bucket[k];
        if (c->batch == Component::Batch::None || c->last_step == now_) continue;
        c->last_step = now_;
        batch_.push_back(c);
      }
      if (!batch_.empty()) batch(batch_);
      for (; i < end; ++i) step_once(bucket[i]);
    }
    finish_cycle(bucket);
  }

  // Cycles with nothing due can be skipped in one go.
  bool idle() const { return pending_ == 0 && far_.empty(); }
  Cycle next_due() const {
    for (Cycle t = now_; t < now_ + static_cast<Cycle>(wheel_.size()); ++t) {
      if (!wheel_[t & (wheel_.size() - 1)].empty()) return t;
    }
    return far_at_.empty() ? INT64_MAX : far_at_.begin()->first;
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
  void step_once(Component* c) {
    if (c->last_step == now_) return;
    c->last_step = now_;
    c->step(now_);
  }
  // The current cycle's bucket is done: time moves on.
  void finish_cycle(std::vector<Component*>& bucket) {
    pending_ -= bucket.size();
    bucket.clear();
    ++now_;
    if (!far_.empty()) refill_far();
  }
  // Moves the far wake-ups now within the wheel's reach into it, in the order (and so with the
  // bucket order) of a scan of far_ from its start that moves each such entry and fills its
  // place with the last one: the next entry to move is always the one at the lowest index.
  // far_at_ finds them without the scan.
  void refill_far() {
    const Cycle reach = now_ + static_cast<Cycle>(wheel_.size()) - 2;  // latest wake-up that moves
    while (!far_at_.empty() && far_at_.begin()->first <= reach) {
      // The due entry at the lowest index (usually all due entries share one time).
      auto due = far_at_.begin();
      for (auto it = std::next(due); it != far_at_.end() && it->first <= reach; ++it)
        if (*it->second.begin() < *due->second.begin()) due = it;
      const size_t i = *due->second.begin();
      due->second.erase(due->second.begin());
      if (due->second.empty()) far_at_.erase(due);
      wheel_[far_[i].at & (wheel_.size() - 1)].push_back(far_[i].c);
      ++pending_;
      const size_t last = far_.size() - 1;
      if (i != last) {
        auto& moved = far_at_[far_[last].at];
        moved.erase(last);
        moved.insert(i);
        far_[i] = far_[last];
      }
      far_.pop_back();
    }
  }
  static constexpr size_t kMaxWheel = size_t{1} << 16;
  struct Far {
    Cycle at;
    Component* c;
  };
  std::vector<std::vector<Component*>> wheel_;
  std::vector<Component*> batch_;  // run_cycle(batch)'s components of one round
  std::vector<Component*> comps_;  // by slot
  std::vector<Cycle> last_wake_;   // by slot
  std::vector<Far> far_;
  std::map<Cycle, std::set<size_t>> far_at_;  // far_'s indices by wake-up time
  int64_t pending_ = 0;
  Cycle now_ = 0;
};

}  // namespace ccsim
