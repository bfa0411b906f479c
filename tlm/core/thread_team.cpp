#include "core/thread_team.h"

namespace ccsim {

namespace {

// A waiting thread polls with pause (a run follows a run within microseconds),
// then with yield (so that more threads than cores still make progress), and
// then, a worker, sleeps until the next run.
constexpr int kPauses = 64;
constexpr int kYields = 20000;

inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

}  // namespace

ThreadTeam::ThreadTeam(int threads) {
  for (int t = 1; t < threads; ++t) workers_.emplace_back([this, t] { work(t); });
}

ThreadTeam::~ThreadTeam() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_.store(true, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  for (auto& w : workers_) w.join();
}

void ThreadTeam::chunk(int t) const {
  const size_t threads = workers_.size() + 1;
  const size_t begin = n_ * t / threads, end = n_ * (t + 1) / threads;
  if (begin < end) (*f_)(begin, end);
}

void ThreadTeam::run(size_t n, const std::function<void(size_t, size_t)>& f) {
  if (workers_.empty() || n < 2) {
    if (n > 0) f(0, n);
    return;
  }
  n_ = n;
  f_ = &f;
  done_.store(0, std::memory_order_relaxed);
  {
    // Under the lock, so a worker between its check and its wait cannot miss the run.
    std::lock_guard<std::mutex> lock(mutex_);
    generation_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  chunk(0);
  const int workers = static_cast<int>(workers_.size());
  for (int spin = 0; done_.load(std::memory_order_acquire) < workers; ++spin)
    if (spin < kPauses)
      relax();
    else
      std::this_thread::yield();
}

void ThreadTeam::work(int t) {
  uint64_t seen = 0;
  for (;;) {
    uint64_t now = generation_.load(std::memory_order_acquire);
    for (int spin = 0; now == seen; ++spin) {
      if (spin < kPauses) {
        relax();
      } else if (spin < kPauses + kYields) {
        std::this_thread::yield();
      } else {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return generation_.load(std::memory_order_acquire) != seen; });
      }
      now = generation_.load(std::memory_order_acquire);
    }
    seen = now;
    if (stop_.load(std::memory_order_relaxed)) return;
    chunk(t);
    done_.fetch_add(1, std::memory_order_acq_rel);
  }
}

}  // namespace ccsim
