// The local launcher: each job is a `ccsim run` child process of this one, at
// most N at a time. The MPI launcher runs its ranks' jobs the same way.
#pragma once
#include <sys/types.h>

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "jobs.h"

namespace ccsim {

class LocalPool {
 public:
  // `launcher`, `rank`: what the children record in run.launcher and run.rank.
  LocalPool(const JobList& list, std::string launcher, int rank = -1);
  ~LocalPool();  // stops the children still running (an interrupted sweep)

  void start(size_t job);
  size_t running() const { return children_.size(); }
  // The next job to end and its exit status; without `block`, nothing when none has ended.
  std::optional<std::pair<size_t, int>> reap(bool block);
  // Prints "[k/n] name done|FAILED ..." for a job that ended.
  void report(size_t job, int status, size_t finished, size_t total) const;

 private:
  const JobList& list_;
  std::map<pid_t, size_t> children_;
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

// SIGINT and SIGTERM set a flag instead of killing this process, so that a
// launcher stops its children and says how to resume; true once one arrived.
void catch_interrupts();
bool interrupted();

// Runs `todo` (indices into list.jobs), `parallel` at a time; the exit status of each
// (128 + signal when killed). Throws on an interrupt, after stopping the children.
std::vector<int> launch_local(const JobList& list, const std::vector<size_t>& todo, int parallel,
                              const std::string& launcher = "local");

}  // namespace ccsim
