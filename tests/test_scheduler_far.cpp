// Far wake-ups (beyond the timing wheel) enter their bucket in exactly the order of the original
// design, which scanned every far wake-up each cycle from the start, moving each due one and
// filling its place with the last. The bucket order is the stepping order within a cycle, so
// any other order could change results. Random wake patterns, stepping order compared.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "core/rng.h"
#include "core/scheduler.h"

namespace ccsim {
namespace {

// The original far list: a vector scanned every cycle.
class ScanningScheduler {
 public:
  explicit ScanningScheduler(size_t wheel) : wheel_(wheel) {}
  void wake(int c, Cycle at) {
    if (at - now_ >= static_cast<Cycle>(wheel_.size())) {
      far_.push_back({at, c});
      return;
    }
    wheel_[at & (wheel_.size() - 1)].push_back(c);
  }
  std::vector<int> run_cycle() {
    std::vector<int> stepped;
    std::swap(stepped, wheel_[now_ & (wheel_.size() - 1)]);
    ++now_;
    for (size_t i = 0; i < far_.size();) {
      if (far_[i].first - now_ < static_cast<Cycle>(wheel_.size()) - 1) {
        wheel_[far_[i].first & (wheel_.size() - 1)].push_back(far_[i].second);
        far_[i] = far_.back();
        far_.pop_back();
      } else {
        ++i;
      }
    }
    return stepped;
  }

 private:
  std::vector<std::vector<int>> wheel_;
  std::vector<std::pair<Cycle, int>> far_;
  Cycle now_ = 0;
};

// A component that records its steps; no de-duplication tricks are exercised (distinct times).
struct Recorder : Component {
  int id = 0;
  std::vector<int>* log = nullptr;
  void step(Cycle) override { log->push_back(id); }
};

TEST(SchedulerFar, EqualTimeWakeUpsKeepTheScanOrder) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Rng rng(seed);
    Scheduler s(30);  // a 32-slot wheel
    ScanningScheduler ref(32);
    constexpr int kComponents = 400;
    std::vector<Recorder> comps(kComponents);
    std::vector<int> log;
    std::vector<Cycle> last_wake(kComponents, -1);
    for (int i = 0; i < kComponents; ++i) {
      comps[i].id = i;
      comps[i].log = &log;
    }
    for (Cycle now = 0; now < 3000; ++now) {
      // A few wake-ups per cycle, most far ahead and many at the same few times.
      for (int k = static_cast<int>(rng.below(6)); k > 0; --k) {
        const int c = static_cast<int>(rng.below(kComponents));
        const Cycle at = now + (rng.chance(1, 4) ? static_cast<Cycle>(rng.below(32)) : 32 + 8 * rng.below(40));
        if (last_wake[c] == at) continue;  // Scheduler de-duplicates repeated wake-ups
        last_wake[c] = at;
        s.wake(&comps[c], at);
        ref.wake(c, at);
      }
      log.clear();
      s.run_cycle();
      std::vector<int> expected = ref.run_cycle();
      // The scheduler skips a component woken twice for one cycle; so does the expectation.
      std::vector<int> dedup;
      std::vector<Cycle> seen(kComponents, -1);
      for (int c : expected)
        if (seen[c] != now) {
          seen[c] = now;
          dedup.push_back(c);
        }
      ASSERT_EQ(log, dedup) << "seed " << seed << ", cycle " << now;
    }
  }
}

}  // namespace
}  // namespace ccsim
