// ccsim: the command-line program. Subcommands run, sweep, jobs, plot, reproduce, list and cores.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <systemc>

#include "commands.h"
#include "huge_pages.h"
#include "core/params.h"

namespace {

// The message with control characters escaped (\n, \t, \xHH): config values
// and keys may hold any of them, and an error must stay one line.
std::string one_line(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else if (c < 0x20 || c == 0x7f)
      out += fmt::format("\\x{:02x}", c);
    else
      out += static_cast<char>(c);
  }
  return out;
}

// --launcher and its settings, shared by sweep and jobs.
void add_launcher_options(CLI::App* cmd, ccsim::LaunchOptions& o) {
  cmd->add_option("--launcher", o.launcher, "local (processes here), mpi (under mpirun/srun) or slurm (a job array)");
  cmd->add_option("-j,--jobs", o.parallel,
                  "runs at once: local, default all cores; mpi, per rank, default 1; slurm, per array task, "
                  "default launcher.cpus_per_task")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--partition", o.partition, "slurm: partition (default: launcher.partition of the config)");
  cmd->add_option("--time", o.time, "slurm: time limit per array task, e.g. 02:00:00 (launcher.time)");
  cmd->add_option("--account", o.account, "slurm: account (launcher.account)");
  cmd->add_option("--cpus-per-task", o.cpus_per_task, "slurm: CPUs per array task (launcher.cpus_per_task)")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--array-tasks", o.array_tasks, "slurm: array tasks the runs are dealt to (launcher.array_tasks)")
      ->check(CLI::Range(0, 100000));
  cmd->add_option("--max-running", o.max_running, "slurm: array tasks running at once, 0 = no limit")
      ->check(CLI::Range(0, 100000));
  cmd->add_flag("--dry-run", o.dry_run, "slurm: write the job script without submitting it");
}

}  // namespace

// SystemC's own main() runs sc_main after setting up the kernel; ours only
// silences the banner first so JSON on stdout stays clean.
int main(int argc, char** argv) {
  ccsim::use_huge_pages();
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char** argv) {
  CLI::App app{"ccsim: cycle-level simulator of congestion management and adaptive routing"};
  app.require_subcommand(1);

  ccsim::RunOptions run;
  auto* run_cmd = app.add_subcommand("run", "run one simulation and write its result JSON");
  run_cmd->add_option("config", run.config, "config file (TOML)")->required();
  run_cmd->add_option("-s,--set", run.overrides, "override a key: section.key=value (repeatable)");
  run_cmd->add_option("-o,--output", run.output, "result JSON file (default: stdout)");
  run_cmd->add_option("--seeds", run.seeds, "average K runs with seeds sim.seed, sim.seed+1, ...")
      ->check(CLI::Range(1, 1000));
  run_cmd->add_flag("--print-config", run.print_config, "print the effective config with defaults and exit");

  ccsim::SweepOptions sweep;
  ccsim::LaunchOptions sweep_launch;
  auto* sweep_cmd = app.add_subcommand("sweep", "run one simulation per parameter value, in parallel processes");
  sweep_cmd->add_option("config", sweep.config, "config file (TOML)");
  sweep_cmd->add_option("--param", sweep.params, "key=v1,v2,... (repeat for a cartesian product)");
  sweep_cmd->add_option("-s,--set", sweep.overrides, "override a key for every point");
  sweep_cmd->add_option("-o,--output", sweep.output, "output directory");
  sweep_cmd->add_option("--seeds", sweep.seeds, "average K seeds per point")->check(CLI::Range(1, 1000));
  sweep_cmd->add_option("--collect", sweep.collect,
                        "write DIR/summary.csv from the results of a sweep started before (a Slurm job array)");
  add_launcher_options(sweep_cmd, sweep_launch);

  ccsim::JobsOptions jobs;
  auto* jobs_cmd = app.add_subcommand("jobs", "run a job list (what Slurm array tasks and ccsim reproduce run)");
  jobs_cmd->add_option("file", jobs.file, "job list (JSON, written by ccsim sweep or reproduce)")->required();
  jobs_cmd->add_option("--chunk", jobs.chunk, "run only the jobs i with i mod CHUNKS = CHUNK (an array task)");
  jobs_cmd->add_option("--chunks", jobs.chunks, "number of chunks")->check(CLI::Range(1, 1000000));
  add_launcher_options(jobs_cmd, jobs.launch);

  std::string plot_dir;
  auto* plot_cmd =
      app.add_subcommand("plot", "plot a sweep (latency and throughput vs load, per class) or one run's time series");
  plot_cmd->add_option("path", plot_dir, "sweep output directory, or a run's result JSON")->required();

  auto* reproduce_cmd = app.add_subcommand(
      "reproduce",
      "reproduce a paper's figures and claims: reproduce PAPER [FIG...] [--scale quick|reduced|paper] [--seeds N] "
      "[-j N] [-o DIR] [--report-only] (see reproduce 003 --help)");
  reproduce_cmd->prefix_command();  // every argument goes to scripts/reproduce.py
  reproduce_cmd->set_help_flag();

  bool markdown = false;
  auto* list_cmd =
      app.add_subcommand("list", "list topologies, routing algorithms, protocols and patterns with their parameters");
  list_cmd->add_flag("--markdown", markdown, "print the configuration reference as Markdown (docs/config.md)");

  int rounds = 200000;
  auto* cores_cmd =
      app.add_subcommand("cores", "time a cache line's round trip between cores (sim.threads' speed-up follows it)");
  cores_cmd->add_option("--rounds", rounds, "ping-pongs per pair of cores")->check(CLI::Range(1, 100000000));

  CLI11_PARSE(app, argc, argv);
  try {
    if (*run_cmd) return ccsim::command_run(run, argv[0]);
    if (*sweep_cmd) return ccsim::command_sweep(sweep, sweep_launch);
    if (*jobs_cmd) return ccsim::command_jobs(jobs);
    if (*plot_cmd) return ccsim::command_plot(plot_dir);
    if (*reproduce_cmd) return ccsim::command_reproduce(reproduce_cmd->remaining());
    if (*cores_cmd) return ccsim::command_cores(std::cout, rounds);
    return markdown ? ccsim::command_list_markdown(std::cout) : ccsim::command_list(std::cout);
  } catch (const ccsim::ConfigError& e) {
    std::cerr << "error: " << one_line(e.what()) << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "error: " << one_line(e.what()) << "\n";
    return 1;
  }
}
