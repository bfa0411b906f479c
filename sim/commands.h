// The subcommands of ccsim.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "launch.h"

namespace ccsim {

struct RunOptions {
  std::string config, output;
  std::vector<std::string> overrides;
  bool print_config = false;
  int seeds = 1;  // runs averaged, seeds sim.seed, sim.seed+1, ...
};

struct SweepOptions {
  std::string config, output;
  std::vector<std::string> params, overrides;
  int seeds = 1;
  std::string collect;  // --collect DIR: only the summary of a sweep run before
};

// ccsim jobs FILE: a job list (jobs.h); --chunk K --chunks N: the share of Slurm array task K.
struct JobsOptions {
  std::string file;
  int chunk = -1, chunks = 0;
  LaunchOptions launch;
};

int command_run(const RunOptions& opt, const char* argv0);
int command_sweep(const SweepOptions& opt, const LaunchOptions& launch);
int command_jobs(const JobsOptions& opt);
int command_plot(const std::string& dir);
// Runs scripts/reproduce.py with these arguments (ccsim reproduce PAPER [FIG...] [options]).
int command_reproduce(std::vector<std::string> args);
int command_list(std::ostream& out);
// Cache-line round trips between cores (what limits sim.threads): `rounds` ping-pongs per pair.
int command_cores(std::ostream& out, int rounds);
std::vector<int> available_cpus();  // the CPUs this process may run on
int command_list_markdown(std::ostream& out);

}  // namespace ccsim
