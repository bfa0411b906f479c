// The Slurm launcher: the jobs to do become one job array (sbatch), each array
// task running its share of them with `ccsim jobs`; the sweep's --collect (or
// the reproduction run again) gathers the results once the array is done.
#pragma once
#include <string>
#include <vector>

#include "core/params.h"
#include "jobs.h"

namespace ccsim {

struct SlurmOptions {
  std::string partition, time, account;
  int cpus_per_task = 1;
  int array_tasks = 0;   // 0: one per job, at most 1000
  int max_running = 0;   // 0: no throttle
  bool dry_run = false;  // write the script, do not submit
};

// The [launcher] keys of a config.
SlurmOptions slurm_options(const Config& cfg);

// Writes DIR/slurm-jobs.json and DIR/ccsim-array.sbatch and submits the script
// (unless dry_run); prints the job id and `collect`, the command that gathers the results.
void launch_slurm(const JobList& list, const std::vector<size_t>& todo, const std::string& dir, const SlurmOptions& opt,
                  const std::string& collect);

}  // namespace ccsim
