// ccsim run CONFIG [-s key=value]... [-o out.json] [--seeds K] [--print-config]
#include <fmt/format.h>

#include <fstream>
#include <iostream>

#include "commands.h"
#include "atomic_file.h"
#include "average.h"
#include "config_loader.h"
#include "run_record.h"
#include "simulate.h"

namespace ccsim {

int command_run(const RunOptions& opt, const char*) {
  std::vector<Override> ov;
  for (auto& s : opt.overrides) ov.push_back(parse_override(s));
  const Config cfg = load_config(opt.config, ov);
  if (opt.print_config) {
    std::cout << config_to_toml(cfg);
    return 0;
  }
  if (opt.seeds > 1 && cfg.get_string("sim.kernel") != "direct")
    throw ConfigError("sim.kernel", "--seeds runs the seeds in one process and needs \"direct\"");
  if (opt.seeds > 1 && !cfg.get_string("sim.trace").empty())
    throw ConfigError("sim.trace", "traces one run: every seed of --seeds would write the same file; run one seed");
  nlohmann::json result;
  if (opt.seeds <= 1) {
    result = simulate(cfg);
  } else {
    // Seeds sim.seed, sim.seed+1, ...: the papers average several runs per point.
    std::vector<nlohmann::json> runs;
    for (int k = 0; k < opt.seeds; ++k) {
      Config c = cfg;
      c.set("sim.seed", cfg.get_int("sim.seed") + k);
      runs.push_back(simulate(c));
    }
    result = average_results(runs);
  }
  result["run"] = run_record(cfg, opt.seeds);
  const std::string text = result.dump(2) + "\n";
  if (opt.output.empty()) {
    std::cout << text;
  } else {
    // A run killed while writing leaves no partial result.
    if (!write_atomically(opt.output, text)) throw std::runtime_error(fmt::format("-o: cannot write {}", opt.output));
  }
  if (result.contains("trace") && result["trace"]["truncated"].get<bool>())
    std::cerr << fmt::format(
        "warning: sim.trace_max_events: the packet trace stopped at cycle {} after {} events; raise it or narrow "
        "sim.trace_nodes, trace_class, trace_start/trace_stop or trace_sample\n",
        result["trace"]["truncated_at"].get<int64_t>(), result["trace"]["events"].get<int64_t>());
  if (result["perf"].contains("threads_obstacle"))
    std::cerr << "note: sim.threads: " << result["perf"]["threads_obstacle"].get<std::string>()
              << ", so the routers step on one thread\n";
  const int64_t threads = cfg.get_int("sim.threads");
  const size_t cpus = available_cpus().size();
  if (threads > 1 && cpus > 0 && static_cast<size_t>(threads) > cpus)
    std::cerr << fmt::format(
        "note: sim.threads = {} on {} available cores: threads wait for each other's turn on a core (same results, "
        "slower; ccsim cores)\n",
        threads, cpus);
  if (result.contains("motifs_unfinished"))
    std::cerr << "warning: motifs not finished at the end of sim.measure: " << result["motifs_unfinished"].dump()
              << " (results: classes.<name>.motif.progress)\n";
  if (result.value("deadlock", false))
    std::cerr << "warning: deadlock detected: " << result["deadlock_info"].dump() << "\n";
  return 0;
}

}  // namespace ccsim
