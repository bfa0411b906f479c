#include "launch_slurm.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>

namespace ccsim {

namespace {

// Slurm's default MaxArraySize is 1001.
constexpr int kMaxArrayTasks = 1000;

std::string shell_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string run_capture(const std::string& cmd, int& status) {
  std::string out;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) throw std::runtime_error(fmt::format("cannot run {}", cmd));
  char buf[512];
  while (fgets(buf, sizeof buf, p)) out += buf;
  status = pclose(p);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

}  // namespace

SlurmOptions slurm_options(const Config& cfg) {
  SlurmOptions o;
  o.partition = cfg.get_string("launcher.partition");
  o.time = cfg.get_string("launcher.time");
  o.account = cfg.get_string("launcher.account");
  o.cpus_per_task = static_cast<int>(cfg.get_int("launcher.cpus_per_task"));
  o.array_tasks = static_cast<int>(cfg.get_int("launcher.array_tasks"));
  o.max_running = static_cast<int>(cfg.get_int("launcher.max_running"));
  return o;
}

void launch_slurm(const JobList& list, const std::vector<size_t>& todo, const std::string& dir, const SlurmOptions& opt,
                  const std::string& collect) {
  namespace fs = std::filesystem;
  if (todo.empty()) {
    std::cerr << fmt::format("slurm: every run is done already{}{}\n", collect.empty() ? "" : "; ", collect);
    return;
  }
  // A rerun while the array it submitted is still queued would run its points twice.
  const std::string id_file = fs::absolute(dir).string() + "/slurm-job-id";
  if (std::ifstream f(id_file); f && !opt.dry_run) {
    std::string previous;
    f >> previous;
    int st = 0;
    if (!previous.empty() && !run_capture("squeue -h -j " + shell_quoted(previous), st).empty() && st == 0) {
      throw std::runtime_error(fmt::format(
          "slurm: job array {} is still queued or running (squeue -j {}); run this again when it has ended (or "
          "scancel {})",
          previous, previous, previous));
    }
  }
  JobList pending;
  for (size_t i : todo) pending.jobs.push_back(list.jobs[i]);
  const std::string abs_dir = fs::absolute(dir).string();
  const std::string jobs_file = abs_dir + "/slurm-jobs.json";
  write_jobs(jobs_file, pending);
  const int limit = opt.array_tasks > 0 ? opt.array_tasks : kMaxArrayTasks;
  const int tasks = std::min(static_cast<int>(pending.jobs.size()), limit);

  std::string s = "#!/bin/bash\n# Written by ccsim: one array task per share of the runs (run i in task i mod " +
                  std::to_string(tasks) + ").\n";
  s += fmt::format("#SBATCH --job-name=ccsim-{}\n", fs::path(abs_dir).filename().string());
  s += fmt::format("#SBATCH --array=0-{}{}\n", tasks - 1,
                   opt.max_running > 0 ? fmt::format("%{}", opt.max_running) : "");
  s += fmt::format("#SBATCH --ntasks=1\n#SBATCH --cpus-per-task={}\n", opt.cpus_per_task);
  s += fmt::format("#SBATCH --chdir={}\n#SBATCH --output={}/slurm-%A_%a.out\n", fs::current_path().string(), abs_dir);
  if (!opt.partition.empty()) s += "#SBATCH --partition=" + opt.partition + "\n";
  if (!opt.time.empty()) s += "#SBATCH --time=" + opt.time + "\n";
  if (!opt.account.empty()) s += "#SBATCH --account=" + opt.account + "\n";
  s += fmt::format("exec {} jobs {} --launcher slurm --chunk \"$SLURM_ARRAY_TASK_ID\" --chunks {} -j {}\n",
                   shell_quoted(fs::canonical("/proc/self/exe").string()), shell_quoted(jobs_file), tasks,
                   opt.cpus_per_task);
  const std::string script = abs_dir + "/ccsim-array.sbatch";
  {
    std::ofstream f(script);
    f << s;
    if (!f) throw std::runtime_error(fmt::format("cannot write {}", script));
  }
  if (opt.dry_run) {
    std::cerr << fmt::format("slurm: wrote {} ({} runs in {} array tasks); submit it with: sbatch {}{}{}\n", script,
                             pending.jobs.size(), tasks, script, collect.empty() ? "" : "\nthen: ", collect);
    return;
  }
  int status = 0;
  const std::string out = run_capture("sbatch --parsable " + shell_quoted(script), status);
  if (status != 0)
    throw ConfigError("--launcher", fmt::format("\"slurm\": sbatch failed: {}", out.empty() ? "no output" : out));
  const std::string id = out.substr(0, out.find(';'));
  std::ofstream(id_file) << id << "\n";
  std::cout << id << "\n";
  std::cerr << fmt::format("slurm: submitted job array {} ({} runs in {} array tasks){}{}\n", id, pending.jobs.size(),
                           tasks, collect.empty() ? "" : "; when it is done: ", collect);
}

}  // namespace ccsim
