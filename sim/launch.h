// `--launcher local|mpi|slurm`: one entry point that runs a job list with the
// chosen launcher, for `ccsim sweep`, `ccsim jobs` and `ccsim reproduce`.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "jobs.h"
#include "launch_slurm.h"

namespace ccsim {

// Command-line settings of a launcher; unset Slurm ones come from the config's [launcher].
struct LaunchOptions {
  std::string launcher = "local";
  int parallel = 0;  // runs at once: local 0 = all cores; mpi per rank, 0 = 1; slurm per task, 0 = cpus_per_task
  std::optional<std::string> partition, time, account;
  std::optional<int> cpus_per_task, array_tasks, max_running;
  bool dry_run = false;
  std::string dir;      // where the Slurm script and its job list go
  std::string collect;  // the command that gathers a Slurm run's results
};

void check_launcher(const std::string& name);
// The config's [launcher] keys with the command line's on top.
SlurmOptions slurm_settings(const LaunchOptions& opt, SlurmOptions from_config);

struct LaunchOutcome {
  bool summarize = false;   // this process holds every status: the local run, MPI's first rank
  std::vector<int> status;  // per job: exit status, -1 = not run (done before, or elsewhere)
};

LaunchOutcome launch(const JobList& list, const LaunchOptions& opt, const SlurmOptions& slurm);

}  // namespace ccsim
