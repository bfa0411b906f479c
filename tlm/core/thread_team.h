// A fixed team of threads that runs one function over an index range split
// into contiguous chunks, one chunk per thread, and returns when every chunk is
// done (sim.threads). The caller's thread takes the first chunk. Waiting threads poll
// briefly (a run follows a run within microseconds while a cycle steps), then
// yield, then workers sleep on a condition variable: an idle team costs no core.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ccsim {

class ThreadTeam {
 public:
  explicit ThreadTeam(int threads);
  ~ThreadTeam();
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }
  // Calls f(begin, end) for the chunks of [0, n), chunk t on thread t; the
  // chunks depend on n and the team's size only.
  void run(size_t n, const std::function<void(size_t, size_t)>& f);

 private:
  void work(int t);
  void chunk(int t) const;

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::atomic<uint64_t> generation_{0};  // grows by one per run
  std::atomic<int> done_{0};             // workers finished with the current run
  std::atomic<bool> stop_{false};        // published through generation_
  size_t n_ = 0;
  const std::function<void(size_t, size_t)>* f_ = nullptr;
};

}  // namespace ccsim
