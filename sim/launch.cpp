#include "launch.h"

#include <fmt/format.h>

#include <iostream>
#include <thread>

#include "core/params.h"
#include "launch_local.h"
#include "launch_mpi.h"

namespace ccsim {

void check_launcher(const std::string& name) {
  if (name != "local" && name != "mpi" && name != "slurm")
    throw ConfigError("--launcher", fmt::format("unknown \"{}\"; allowed: local, mpi, slurm", name));
}

SlurmOptions slurm_settings(const LaunchOptions& opt, SlurmOptions s) {
  if (opt.partition) s.partition = *opt.partition;
  if (opt.time) s.time = *opt.time;
  if (opt.account) s.account = *opt.account;
  if (opt.cpus_per_task) s.cpus_per_task = *opt.cpus_per_task;
  if (opt.array_tasks) s.array_tasks = *opt.array_tasks;
  if (opt.max_running) s.max_running = *opt.max_running;
  s.dry_run = opt.dry_run;
  return s;
}

LaunchOutcome launch(const JobList& list, const LaunchOptions& opt, const SlurmOptions& slurm) {
  check_launcher(opt.launcher);
  const std::vector<size_t> todo = jobs_to_do(list);
  LaunchOutcome out;
  if (opt.launcher == "slurm") {
    launch_slurm(list, todo, opt.dir, slurm, opt.collect);
    return out;
  }
  if (opt.launcher == "mpi") {
    MpiOutcome m = launch_mpi(list, todo, opt.parallel > 0 ? opt.parallel : 1);
    out.summarize = m.first_rank;
    out.status = std::move(m.status);
    return out;
  }
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (todo.size() < list.jobs.size())
    std::cerr << fmt::format("{} of {} runs done already: running the other {}\n", list.jobs.size() - todo.size(),
                             list.jobs.size(), todo.size());
  catch_interrupts();
  out.status = launch_local(list, todo, opt.parallel > 0 ? opt.parallel : cores);
  out.summarize = true;
  return out;
}

}  // namespace ccsim
