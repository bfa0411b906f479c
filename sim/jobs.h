// The runs a sweep or a reproduction asks for, as a list of `ccsim run`
// invocations that every launcher (local, mpi, slurm) executes the same way.
// A job is done when its result JSON exists and was made by this model from
// the same config (run.model, run.config_digest): a rerun skips it, so every
// launcher resumes where it stopped.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace ccsim {

struct Job {
  std::string name;               // for messages: the point's name
  std::vector<std::string> args;  // ccsim's arguments: run CONFIG -s ... (without -o)
  std::string output;             // the result JSON
  std::string digest;             // the expected run.config_digest; "" = any result of this model
};

struct JobList {
  std::vector<Job> jobs;
  // Run by the first rank once every job has ended (`ccsim reproduce --launcher mpi`
  // writes its report this way); empty: nothing.
  std::vector<std::string> then;
};

JobList read_jobs(const std::string& path);
// Written to a temporary file and renamed: several ranks may write the same list.
void write_jobs(const std::string& path, const JobList& list);

bool job_done(const Job& job);
std::string log_path(const Job& job);  // the run's stderr, beside its result
// The indices of the jobs not done, in list order.
std::vector<size_t> jobs_to_do(const JobList& list);
std::string last_log_line(const Job& job);  // "" when there is no log
// "done" or "FAILED (exit N): <last line of its log>".
std::string describe_status(const Job& job, int status);

// Creates `dir` and checks that a file can be written there: one clear line if not.
void require_writable_dir(const std::string& dir, const std::string& option);

}  // namespace ccsim
