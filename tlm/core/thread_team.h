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
  // run(n, f), and after each chunk's f, then(begin, end) for that chunk in the chunks'
  // order: chunk t's `then` starts when chunk t-1's has finished. Shared effects done in
  // `then` happen in the order one thread gives them, on the thread whose cache holds the
  // chunk's data, and overlap with later chunks' f.
  void run_ordered(size_t n, const std::function<void(size_t, size_t)>& f,
                   const std::function<void(size_t, size_t)>& then);

 private:
  void start(size_t n, const std::function<void(size_t, size_t)>& f);  // run's body, then_ set
  void work(int t);
  void chunk(int t);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::atomic<uint64_t> generation_{0};  // grows by one per run
  std::atomic<int> done_{0};             // workers finished with the current run
  std::atomic<int> thens_done_{0};       // chunks whose `then` has finished (run_ordered)
  std::atomic<bool> stop_{false};        // published through generation_
  size_t n_ = 0;
  const std::function<void(size_t, size_t)>* f_ = nullptr;
  const std::function<void(size_t, size_t)>* then_ = nullptr;  // run_ordered's, or none
};

}  // namespace ccsim
