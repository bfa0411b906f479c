#include "launch_local.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <fmt/format.h>
#include <iostream>
#include <stdexcept>

extern char** environ;

namespace ccsim {

namespace {

std::atomic<bool> g_interrupted{false};

void on_interrupt(int) { g_interrupted = true; }

}  // namespace

void catch_interrupts() {
  struct sigaction sa = {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocked waitpid returns and the launcher notices
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

bool interrupted() { return g_interrupted; }

LocalPool::LocalPool(const JobList& list, std::string launcher, int rank) : list_(list) {
  setenv("CCSIM_LAUNCHER", launcher.c_str(), 1);
  if (rank >= 0) setenv("CCSIM_RANK", std::to_string(rank).c_str(), 1);
}

LocalPool::~LocalPool() {
  for (auto& [pid, job] : children_) kill(pid, SIGTERM);
  for (auto& [pid, job] : children_) waitpid(pid, nullptr, 0);
}

void LocalPool::start(size_t job) {
  const Job& j = list_.jobs[job];
  std::vector<std::string> args = {"ccsim"};
  args.insert(args.end(), j.args.begin(), j.args.end());
  args.insert(args.end(), {"-o", j.output});
  const std::string log = log_path(j);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 2, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int err = posix_spawn(&pid, "/proc/self/exe", &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (err != 0) throw std::runtime_error(fmt::format("cannot start a ccsim process for {}", j.name));
  children_[pid] = job;
}

std::optional<std::pair<size_t, int>> LocalPool::reap(bool block) {
  while (!children_.empty()) {
    int st = 0;
    const pid_t pid = waitpid(-1, &st, block ? 0 : WNOHANG);
    if (pid == 0) return std::nullopt;
    if (pid < 0) {
      if (errno == EINTR && !interrupted()) continue;
      return std::nullopt;
    }
    auto it = children_.find(pid);
    if (it == children_.end()) continue;
    const size_t job = it->second;
    children_.erase(it);
    return std::make_pair(job, WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
  }
  return std::nullopt;
}

void LocalPool::report(size_t job, int status, size_t finished, size_t total) const {
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  std::cerr << fmt::format("[{}/{}] {} {} ({:.1f} s elapsed)\n", finished, total, list_.jobs[job].name,
                           describe_status(list_.jobs[job], status), secs);
}

std::vector<int> launch_local(const JobList& list, const std::vector<size_t>& todo, int parallel,
                              const std::string& launcher) {
  std::vector<int> status(list.jobs.size(), -1);
  LocalPool pool(list, launcher);
  size_t next = 0, finished = 0;
  while (finished < todo.size()) {
    while (!interrupted() && pool.running() < static_cast<size_t>(parallel) && next < todo.size())
      pool.start(todo[next++]);
    const auto ended = pool.reap(true);
    if (interrupted())
      throw std::runtime_error(fmt::format(
          "interrupted: {} of {} runs finished; run the same command again to do the rest", finished, todo.size()));
    if (!ended) break;
    status[ended->first] = ended->second;
    pool.report(ended->first, ended->second, ++finished, todo.size());
  }
  return status;
}

}  // namespace ccsim
