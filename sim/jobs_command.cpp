// ccsim jobs FILE [--launcher local|mpi|slurm] [-j N] [--chunk K --chunks N]
// Runs a job list (jobs.h): what a Slurm array task runs (its chunk: the jobs
// i with i mod N = K), and what `ccsim reproduce` hands its runs to.
#include <unistd.h>

#include <filesystem>
#include <fmt/format.h>
#include <iostream>

#include "commands.h"
#include "launch.h"
#include "launch_local.h"

namespace ccsim {

int command_jobs(const JobsOptions& opt) {
  const JobList list = read_jobs(opt.file);
  std::vector<int> status;
  if (opt.chunks > 0) {
    if (opt.chunk < 0 || opt.chunk >= opt.chunks)
      throw ConfigError("--chunk",
                        fmt::format("{} is outside 0..{} (--chunks {})", opt.chunk, opt.chunks - 1, opt.chunks));
    std::vector<size_t> todo;
    for (size_t i : jobs_to_do(list))
      if (static_cast<int>(i % static_cast<size_t>(opt.chunks)) == opt.chunk) todo.push_back(i);
    catch_interrupts();
    status = launch_local(list, todo, std::max(1, opt.launch.parallel), opt.launch.launcher);
  } else {
    LaunchOptions lo = opt.launch;
    if (lo.dir.empty()) lo.dir = std::filesystem::path(opt.file).parent_path().string();
    const LaunchOutcome out = launch(list, lo, slurm_settings(lo, SlurmOptions{}));
    if (!out.summarize) return 0;
    status = out.status;
  }
  int failed = 0;
  for (size_t i = 0; i < status.size(); ++i) failed += status[i] > 0;
  if (failed) std::cerr << fmt::format("{} of {} runs failed\n", failed, list.jobs.size());
  if (!list.then.empty()) {
    // The reproduction's report, now that every run is on disk.
    std::vector<char*> argv;
    std::vector<std::string> then = list.then;
    for (auto& a : then) argv.push_back(a.data());
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    throw std::runtime_error(fmt::format("cannot run {}", then[0]));
  }
  return failed ? 1 : 0;
}

}  // namespace ccsim
