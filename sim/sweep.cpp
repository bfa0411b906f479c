// ccsim sweep CONFIG --param key=v1,v2,... [-j N] -o DIR
// One `ccsim run` process per point (cartesian product of the --param lists),
// at most N at a time; DIR/<point>.json per point and DIR/summary.csv.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "commands.h"
#include "config_loader.h"
#include "core/params.h"

extern char** environ;

namespace ccsim {

namespace {

struct Axis {
  std::string key;
  std::vector<std::string> values;
};

struct Point {
  std::string name;
  std::vector<std::pair<std::string, std::string>> settings;
};

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    size_t pos = s.find(sep, start);
    out.push_back(s.substr(start, pos - start));
    if (pos == std::string::npos) break;
    start = pos + 1;
  }
  return out;
}

std::vector<Point> expand(const std::vector<Axis>& axes) {
  std::vector<Point> points{{}};
  for (auto& a : axes) {
    std::vector<Point> next;
    const std::string short_key = a.key.substr(a.key.rfind('.') + 1);
    for (auto& p : points)
      for (auto& v : a.values) {
        Point q = p;
        q.name += (q.name.empty() ? "" : "_") + short_key + "-" + v;
        q.settings.emplace_back(a.key, v);
        next.push_back(q);
      }
    points = next;
  }
  return points;
}

pid_t spawn(const std::vector<std::string>& args, const std::string& log) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 2, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  if (posix_spawn(&pid, "/proc/self/exe", &fa, nullptr, argv.data(), environ) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&fa);
  return pid;
}

const char* kColumns[] = {"offered_load",
                          "generated_load",
                          "accepted_throughput",
                          "avg_packet_latency",
                          "avg_network_latency",
                          "avg_network_latency_delivered",
                          "avg_message_latency",
                          "latency_p50",
                          "latency_p99",
                          "avg_hops",
                          "misrouted_fraction",
                          "node_accepted_min",
                          "node_accepted_max",
                          "saturated",
                          "deadlock"};

}  // namespace

int command_sweep(const SweepOptions& opt, const char*) {
  std::vector<Axis> axes;
  for (auto& p : opt.params) {
    const auto eq = p.find('=');
    if (eq == std::string::npos) throw ConfigError("", fmt::format("--param expects key=v1,v2,..., got \"{}\"", p));
    axes.push_back({p.substr(0, eq), split(p.substr(eq + 1), ',')});
  }
  // Validate every point's config up front: one clear error instead of N failed runs.
  std::vector<Override> base;
  for (auto& s : opt.overrides) base.push_back(parse_override(s));
  const std::vector<Point> points = expand(axes);
  bool traced = false;  // sim.trace: each point writes its own trace beside its result
  for (auto& pt : points) {
    std::vector<Override> ov = base;
    for (auto& [k, v] : pt.settings) ov.push_back({k, v});
    traced = !load_config(opt.config, ov).get_string("sim.trace").empty() || traced;
  }
  std::filesystem::create_directories(opt.output);
  const int jobs = opt.jobs > 0 ? opt.jobs : std::max(1u, std::thread::hardware_concurrency());

  std::map<pid_t, size_t> running;
  std::vector<int> status(points.size(), -1);
  size_t next = 0, done = 0;
  const auto t0 = std::chrono::steady_clock::now();
  while (done < points.size()) {
    while (running.size() < static_cast<size_t>(jobs) && next < points.size()) {
      const Point& pt = points[next];
      std::vector<std::string> args = {"ccsim", "run", opt.config};
      for (auto& s : opt.overrides) args.insert(args.end(), {"-s", s});
      for (auto& [k, v] : pt.settings) args.insert(args.end(), {"-s", k + "=" + v});
      args.insert(args.end(), {"-o", opt.output + "/" + pt.name + ".json"});
      if (traced) args.insert(args.end(), {"-s", "sim.trace_file=\"" + opt.output + "/" + pt.name + ".trace.json\""});
      if (opt.seeds > 1) args.insert(args.end(), {"--seeds", std::to_string(opt.seeds)});
      pid_t pid = spawn(args, opt.output + "/" + pt.name + ".log");
      if (pid < 0) throw std::runtime_error("cannot start a ccsim process");
      running[pid] = next++;
    }
    int st = 0;
    pid_t pid = waitpid(-1, &st, 0);
    if (pid < 0) break;
    auto it = running.find(pid);
    if (it == running.end()) continue;
    const size_t i = it->second;
    running.erase(it);
    status[i] = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
    ++done;
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cerr << fmt::format(
        "[{}/{}] {} {} ({:.1f} s elapsed)\n", done, points.size(), points[i].name,
        status[i] == 0 ? "done"
                       : fmt::format("FAILED (exit {}, see {}.log)", status[i], opt.output + "/" + points[i].name),
        secs);
  }

  // One row per point; with several traffic classes, their throughput and latency too.
  std::vector<nlohmann::json> results(points.size());
  std::vector<std::string> class_names;
  int failures = 0;
  for (size_t i = 0; i < points.size(); ++i) {
    if (status[i] != 0) {
      ++failures;
      continue;
    }
    std::ifstream f(opt.output + "/" + points[i].name + ".json");
    results[i] = nlohmann::json::parse(f);
    if (class_names.empty() && results[i]["classes"].size() > 1)
      for (auto& [name, c] : results[i]["classes"].items()) class_names.push_back(name);
  }
  std::ofstream csv(opt.output + "/summary.csv");
  csv << "point";
  for (auto& a : axes) csv << "," << a.key;
  for (auto* c : kColumns) csv << "," << c;
  for (auto& name : class_names) csv << "," << name << ".accepted_throughput," << name << ".avg_packet_latency";
  csv << ",cycles_per_second\n";
  for (size_t i = 0; i < points.size(); ++i) {
    if (status[i] != 0) continue;
    const nlohmann::json& j = results[i];
    csv << points[i].name;
    for (auto& [k, v] : points[i].settings) csv << "," << v;
    for (auto* c : kColumns) csv << "," << j[c].dump();
    for (auto& name : class_names)
      csv << "," << j["classes"][name].value("accepted_throughput", 0.0) << ","
          << j["classes"][name].value("avg_packet_latency", 0.0);
    csv << "," << j["perf"]["cycles_per_second"].dump() << "\n";
  }
  std::cerr << fmt::format("wrote {}/summary.csv ({} points, {} failed)\n", opt.output, points.size(), failures);
  return failures ? 1 : 0;
}

}  // namespace ccsim
