// ccsim cores: the round trip of a cache line between two threads, unpinned and
// from the first core to each other one. sim.threads hands work and the links
// between routers of different threads from core to core every cycle, so its
// speed-up follows these times (cores on one die: tens of ns; across dies or
// sockets: hundreds).
#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <ostream>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "commands.h"

namespace ccsim {

namespace {

bool pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0;
}

// Mean round trip in ns of `rounds` ping-pongs between this thread and another,
// pinned to cpus a and b (or left to the OS: -1). Negative when pinning fails.
double round_trip_ns(int a, int b, int rounds) {
  std::atomic<int> line{0};
  std::atomic<bool> pinned{true};
  std::thread other([&] {
    if (b >= 0 && !pin(b)) pinned = false;
    for (int i = 0; i < rounds; ++i) {
      while (line.load(std::memory_order_acquire) != 2 * i + 1) {
      }
      line.store(2 * i + 2, std::memory_order_release);
    }
  });
  cpu_set_t before;
  pthread_getaffinity_np(pthread_self(), sizeof(before), &before);
  if (a >= 0 && !pin(a)) pinned = false;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < rounds; ++i) {
    line.store(2 * i + 1, std::memory_order_release);
    while (line.load(std::memory_order_acquire) != 2 * i + 2) {
    }
  }
  const auto stop = std::chrono::steady_clock::now();
  other.join();
  pthread_setaffinity_np(pthread_self(), sizeof(before), &before);
  if (!pinned) return -1;
  return std::chrono::duration<double, std::nano>(stop - start).count() / rounds;
}

}  // namespace

std::vector<int> available_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

int command_cores(std::ostream& out, int rounds) {
  const std::vector<int> cpus = available_cpus();
  if (cpus.empty()) return 1;
  out << fmt::format("cores available: {}\n", cpus.size());
  if (cpus.size() < 2) {
    out << "one core: sim.threads > 1 cannot run in parallel here\n";
    return 0;
  }
  out << fmt::format("round trip between two threads, unpinned: {:.0f} ns\n", round_trip_ns(-1, -1, rounds));
  for (size_t k = 1; k < cpus.size(); ++k) {
    const double ns = round_trip_ns(cpus[0], cpus[k], rounds);
    if (ns < 0)
      out << fmt::format("cpu {} - cpu {}: cannot pin\n", cpus[0], cpus[k]);
    else
      out << fmt::format("cpu {} - cpu {}: {:.0f} ns\n", cpus[0], cpus[k], ns);
  }
  return 0;
}

}  // namespace ccsim
