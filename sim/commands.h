// The subcommands of ccsim.
#pragma once
#include <ostream>
#include <string>
#include <vector>

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
  int jobs = 0;
  int seeds = 1;
};

int command_run(const RunOptions& opt, const char* argv0);
int command_sweep(const SweepOptions& opt, const char* argv0);
int command_plot(const std::string& dir);
// Runs scripts/reproduce.py with these arguments (ccsim reproduce PAPER [FIG...] [options]).
int command_reproduce(std::vector<std::string> args);
int command_list(std::ostream& out);
int command_list_markdown(std::ostream& out);

}  // namespace ccsim
