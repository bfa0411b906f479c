#include "simulate.h"

#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "core/network.h"
#include "registry.h"

namespace ccsim {

namespace {

// Longest run accepted: ~13 days at 1e6 cycles/s, faster than any loaded
// network simulates. Anything longer is a typo, and sums of such values would
// overflow the int64 cycle counters.
constexpr double kMaxRunCycles = 1099511627776.0;  // 2^40

std::string duration(double seconds) {
  if (seconds < 3600) return fmt::format("{:.0f} s", seconds);
  if (seconds < 86400) return fmt::format("{:.1f} hours", seconds / 3600);
  if (seconds < 86400 * 365.0) return fmt::format("{:.0f} days", seconds / 86400);
  return fmt::format("{:.3g} years", seconds / (86400 * 365.0));
}

void check_run_length(const Config& cfg) {
  const double warmup = static_cast<double>(cfg.get_int("sim.warmup"));
  const double measure = static_cast<double>(cfg.get_int("sim.measure"));
  const double cap = static_cast<double>(cfg.get_int("sim.drain_cap"));
  const double drain = cap > 0 ? cap : 4 * measure;
  const double total = warmup + measure + drain;  // doubles: no overflow
  // A window longer than any run would only overflow the bin count.
  if (cfg.get_int("sim.series_window") > kMaxRunCycles)
    throw ConfigError("sim.series_window",
                      fmt::format("{} cycles is longer than any run (at most 2^40 = {:.0f} cycles)",
                                  cfg.get_int("sim.series_window"), kMaxRunCycles));
  if (total <= kMaxRunCycles) return;
  const char* key = warmup >= measure && warmup >= drain ? "sim.warmup"
                    : cap > 0 && cap >= measure          ? "sim.drain_cap"
                                                         : "sim.measure";
  throw ConfigError(key, fmt::format("a run of up to {} + {} + {:.0f} cycles (warmup + measure + drain cap{}) would "
                                     "take {} at 1e6 cycles/s; at most 2^40 = {:.0f} cycles in all",
                                     cfg.get_int("sim.warmup"), cfg.get_int("sim.measure"), drain,
                                     cap > 0 ? "" : " = 4*measure", duration(total / 1e6), kMaxRunCycles));
}

// Cycles past any run: the traffic source adds gaps to them, which would overflow.
void check_times(const Config& c, const std::string& where) {
  for (const char* key : {"traffic.start", "traffic.stop", "traffic.at"})
    if (c.has(key) && c.get_int(key) > kMaxRunCycles)
      throw ConfigError(where + std::string(key).substr(7),
                        fmt::format("{} cycles is past the end of any run (at most 2^40 = {:.0f} cycles)",
                                    c.get_int(key), kMaxRunCycles));
}

// Gaps between a node's messages (the traffic source draws them as int64
// cycles) must fit in a run; longer ones overflow and flood the network.
void check_rates(const Config& c, const std::string& where) {
  const double flits = static_cast<double>(c.get_int("traffic.packet_size")) * c.get_int("traffic.message_size");
  const double load = c.get_float("traffic.load");
  if (load <= 0) return;
  auto refuse = [&](const std::string& key, const std::string& what, double gap) {
    throw ConfigError(where + "." + key, fmt::format("{} means gaps of {:.3g} cycles between a node's messages, "
                                                     "longer than any run (at most 2^40 cycles)",
                                                     what, gap));
  };
  if (flits / load > kMaxRunCycles)
    refuse("load", fmt::format("{} flits/node/cycle (0: no traffic)", load), flits / load);
  if (c.get_string("traffic.injection") != "onoff") return;
  const double rate = c.get_float("traffic.burst_rate"), length = c.get_float("traffic.burst_length");
  if (flits / rate > kMaxRunCycles) refuse("burst_rate", fmt::format("{} flits/cycle in a burst", rate), flits / rate);
  const double off = length * flits * (1.0 / load - 1.0 / rate);
  if (off > kMaxRunCycles)
    refuse("burst_length", fmt::format("{} messages per burst at load {} (the off periods)", length, load), off);
}

double available_bytes() {
  double bytes = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
  rlimit lim{};
  if (getrlimit(RLIMIT_AS, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY)
    bytes = std::min(bytes, static_cast<double>(lim.rlim_cur));
  return bytes;
}

// A lower bound of the memory the network needs against the memory there is.
// Measured peak RSS is ~4 KB per node and ~2 KB per port with 4 VCs; the
// estimate takes less, so it never refuses a network that would fit.
void check_memory(const Config& cfg) {
  const std::string kind = cfg.get_string("topology.kind");
  const auto topo = find_topology(kind).make(cfg);
  double ports = 0;
  for (int r = 0; r < topo->num_routers(); ++r) ports += topo->radix(r);
  const double network = topo->num_nodes() * 3e3 + ports * (1e3 + 128.0 * cfg.get_int("router.vcs"));
  // The event calendar has a slot per cycle of the longest link plus router (scheduler.h).
  std::string longest = "links.terminal_latency";
  for (const char* k : {"links.local_latency", "links.global_latency"})
    if (cfg.get_int(k) > cfg.get_int(longest)) longest = k;
  const double latency = static_cast<double>(cfg.get_int(longest) + cfg.get_int("router.latency"));
  const double calendar = std::exp2(std::ceil(std::log2(latency + 4))) * 24;
  // Time series: a 32-byte bin per window, for the total and for each class.
  double series = 0;
  if (const int64_t w = cfg.get_int("sim.series_window"); w > 0)
    series = std::ceil(static_cast<double>(cfg.get_int("sim.warmup") + cfg.get_int("sim.measure")) / w) * 32 *
             (1 + std::max<double>(1, static_cast<double>(cfg.classes.size())));
  const double need = network + calendar + series, have = available_bytes();
  if (need <= have) return;
  const char* key = series >= network && series >= calendar ? "sim.series_window"
                    : calendar >= network                   ? longest.c_str()
                    : kind == "dragonfly"                   ? "topology.a"
                                                            : "topology.k";
  throw ConfigError(key, fmt::format("needs at least {:.1f} GiB ({} routers, {} nodes: {:.1f} GiB; event calendar: "
                                     "{:.1f} GiB; time series: {:.1f} GiB), more than the {:.1f} GiB of memory "
                                     "available",
                                     need / (1 << 30), topo->num_routers(), topo->num_nodes(), network / (1 << 30),
                                     calendar / (1 << 30), series / (1 << 30), have / (1 << 30)));
}

// Runs that could never finish or fit are refused before anything is built,
// with one line naming the key and the time or memory they would need.
void check_feasible(const Config& cfg) {
  check_run_length(cfg);
  std::vector<std::pair<const Config*, std::string>> traffic{{&cfg, "traffic"}};
  for (size_t j = 0; j < cfg.phases.size(); ++j)
    traffic.push_back({&cfg.phases[j], fmt::format("traffic.phase[{}]", j)});
  for (size_t i = 0; i < cfg.classes.size(); ++i) {
    traffic.push_back({&cfg.classes[i], fmt::format("traffic.class[{}]", i)});
    for (size_t j = 0; j < cfg.classes[i].phases.size(); ++j)
      traffic.push_back({&cfg.classes[i].phases[j], fmt::format("traffic.class[{}].phase[{}]", i, j)});
  }
  for (auto& [c, where] : traffic) check_times(*c, where);
  // With [[traffic.class]] tables the [traffic] keys only serve as the classes' defaults.
  for (auto& [c, where] : traffic)
    if (c != &cfg || cfg.classes.empty()) check_rates(*c, where);
  check_memory(cfg);
}

}  // namespace

nlohmann::json simulate(const Config& cfg) {
  check_feasible(cfg);
  // SystemC object names must be unique while they live; one network at a time.
  static int instance = 0;
  Network net(("network" + std::to_string(instance++)).c_str(), cfg);
  return net.run();
}

}  // namespace ccsim
