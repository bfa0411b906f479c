// ccsim sweep CONFIG --param key=v1,v2,... [-j N] [--launcher local|mpi|slurm] -o DIR
// ccsim sweep --collect DIR
// One `ccsim run` per point (cartesian product of the --param lists), run by
// the launcher; DIR/<point>.json per point, DIR/summary.csv, and DIR/sweep.json
// (what --collect needs). A point already done is not run again.
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "atomic_file.h"
#include "commands.h"
#include "config_loader.h"
#include "core/params.h"
#include "jobs.h"
#include "launch.h"
#include "run_record.h"

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

// The sweep's own description, kept in DIR/sweep.json so that --collect can
// rebuild its points and summary later (after a Slurm job array, say).
nlohmann::json describe(const SweepOptions& opt) {
  return {{"config", std::filesystem::absolute(opt.config).string()},
          {"params", opt.params},
          {"overrides", opt.overrides},
          {"seeds", opt.seeds}};
}

SweepOptions from_description(const std::string& dir) {
  std::ifstream f(dir + "/sweep.json");
  if (!f) throw ConfigError("--collect", fmt::format("{}/sweep.json not found: not a sweep's output directory", dir));
  const nlohmann::json j = nlohmann::json::parse(f);
  SweepOptions opt;
  opt.config = j.at("config");
  opt.params = j.at("params").get<std::vector<std::string>>();
  opt.overrides = j.at("overrides").get<std::vector<std::string>>();
  opt.seeds = j.at("seeds");
  opt.output = dir;
  return opt;
}

struct Sweep {
  std::vector<Axis> axes;
  std::vector<Point> points;
  JobList jobs;  // one per point, in the same order
  Config first;  // the first point's config: its [launcher] keys
};

// The points of a sweep and their runs; every point's config is validated up
// front: one clear error instead of N failed runs.
Sweep plan(const SweepOptions& opt) {
  Sweep sw;
  for (auto& p : opt.params) {
    const auto eq = p.find('=');
    if (eq == std::string::npos) throw ConfigError("", fmt::format("--param expects key=v1,v2,..., got \"{}\"", p));
    sw.axes.push_back({p.substr(0, eq), split(p.substr(eq + 1), ',')});
  }
  std::vector<Override> base;
  for (auto& s : opt.overrides) base.push_back(parse_override(s));
  sw.points = expand(sw.axes);
  for (auto& pt : sw.points) {
    std::vector<Override> ov = base;
    for (auto& [k, v] : pt.settings) ov.push_back({k, v});
    const Config cfg = load_config(opt.config, ov);
    if (&pt == &sw.points.front()) sw.first = cfg;
    Job job{pt.name, {"run", opt.config}, opt.output + "/" + pt.name + ".json", config_digest(cfg, opt.seeds)};
    for (auto& s : opt.overrides) job.args.insert(job.args.end(), {"-s", s});
    for (auto& [k, v] : pt.settings) job.args.insert(job.args.end(), {"-s", k + "=" + v});
    // sim.trace: each point writes its own trace beside its result.
    if (!cfg.get_string("sim.trace").empty())
      job.args.insert(job.args.end(), {"-s", "sim.trace_file=\"" + opt.output + "/" + pt.name + ".trace.json\""});
    if (opt.seeds > 1) job.args.insert(job.args.end(), {"--seeds", std::to_string(opt.seeds)});
    sw.jobs.jobs.push_back(std::move(job));
  }
  return sw;
}

// One row per finished point; with several traffic classes, their throughput and latency too.
int write_summary(const Sweep& sw, const std::string& dir, const std::vector<int>& status) {
  std::vector<nlohmann::json> results(sw.points.size());
  std::vector<std::string> class_names;
  int missing = 0;
  for (size_t i = 0; i < sw.points.size(); ++i) {
    const Job& job = sw.jobs.jobs[i];
    if (!job_done(job)) {
      ++missing;
      const int st = i < status.size() ? status[i] : -1;
      const std::string log = last_log_line(job);
      std::cerr << fmt::format("{}: {}\n", job.name,
                               st > 0        ? describe_status(job, st)
                               : log.empty() ? std::string("not run yet")
                                             : "no result; its log ends: " + log);
      continue;
    }
    std::ifstream f(job.output);
    results[i] = nlohmann::json::parse(f);
    if (class_names.empty() && results[i]["classes"].size() > 1)
      for (auto& [name, c] : results[i]["classes"].items()) class_names.push_back(name);
  }
  std::ofstream csv(dir + "/summary.csv");
  csv << "point";
  for (auto& a : sw.axes) csv << "," << a.key;
  for (auto* c : kColumns) csv << "," << c;
  for (auto& name : class_names) csv << "," << name << ".accepted_throughput," << name << ".avg_packet_latency";
  csv << ",cycles_per_second\n";
  for (size_t i = 0; i < sw.points.size(); ++i) {
    if (results[i].is_null()) continue;
    const nlohmann::json& j = results[i];
    csv << sw.points[i].name;
    for (auto& [k, v] : sw.points[i].settings) csv << "," << v;
    for (auto* c : kColumns) csv << "," << j[c].dump();
    for (auto& name : class_names)
      csv << "," << j["classes"][name].value("accepted_throughput", 0.0) << ","
          << j["classes"][name].value("avg_packet_latency", 0.0);
    csv << "," << j["perf"]["cycles_per_second"].dump() << "\n";
  }
  std::cerr << fmt::format("wrote {}/summary.csv ({} points, {} without a result)\n", dir, sw.points.size(), missing);
  return missing ? 1 : 0;
}

}  // namespace

int command_sweep(const SweepOptions& opt_in, const LaunchOptions& launch_in) {
  if (!opt_in.collect.empty()) {
    const SweepOptions opt = from_description(opt_in.collect);
    return write_summary(plan(opt), opt.output, {});
  }
  const SweepOptions& opt = opt_in;
  if (opt.config.empty() || opt.params.empty() || opt.output.empty())
    throw ConfigError("", "sweep needs CONFIG, --param and -o DIR (or --collect DIR)");
  check_launcher(launch_in.launcher);
  const Sweep sw = plan(opt);
  require_writable_dir(opt.output, "-o");
  // Every MPI rank writes the same text.
  if (!write_atomically(opt.output + "/sweep.json", describe(opt).dump(1) + "\n"))
    throw std::runtime_error(fmt::format("cannot write {}/sweep.json", opt.output));
  LaunchOptions lo = launch_in;
  lo.dir = opt.output;
  lo.collect = "ccsim sweep --collect " + opt.output;
  const LaunchOutcome out = launch(sw.jobs, lo, slurm_settings(lo, slurm_options(sw.first)));
  if (!out.summarize) return 0;
  return write_summary(sw, opt.output, out.status);
}

}  // namespace ccsim
