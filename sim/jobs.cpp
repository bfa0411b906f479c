#include "jobs.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>

#include "atomic_file.h"
#include "core/params.h"
#include "run_record.h"

namespace ccsim {

JobList read_jobs(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error(fmt::format("cannot read the job list {}", path));
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(f);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(fmt::format("job list {}: {}", path, e.what()));
  }
  JobList list;
  for (auto& o : j.at("jobs"))
    list.jobs.push_back(
        {o.at("name"), o.at("args").get<std::vector<std::string>>(), o.at("output"), o.value("digest", "")});
  list.then = j.value("then", std::vector<std::string>{});
  return list;
}

void write_jobs(const std::string& path, const JobList& list) {
  nlohmann::json j = {{"jobs", nlohmann::json::array()}};
  for (auto& job : list.jobs)
    j["jobs"].push_back({{"name", job.name}, {"args", job.args}, {"output", job.output}, {"digest", job.digest}});
  if (!list.then.empty()) j["then"] = list.then;
  if (!write_atomically(path, j.dump(1) + "\n"))
    throw std::runtime_error(fmt::format("cannot write the job list {}", path));
}

bool job_done(const Job& job) {
  std::ifstream f(job.output);
  if (!f) return false;
  const nlohmann::json r = nlohmann::json::parse(f, nullptr, false);
  if (r.is_discarded() || !r.contains("run")) return false;
  const nlohmann::json& run = r["run"];
  return run.value("model", "") == model_version() &&
         (job.digest.empty() || run.value("config_digest", "") == job.digest);
}

std::string log_path(const Job& job) {
  const std::filesystem::path p(job.output);
  return (p.parent_path() / p.stem()).string() + ".log";
}

std::vector<size_t> jobs_to_do(const JobList& list) {
  std::vector<size_t> todo;
  for (size_t i = 0; i < list.jobs.size(); ++i)
    if (!job_done(list.jobs[i])) todo.push_back(i);
  return todo;
}

std::string last_log_line(const Job& job) {
  std::ifstream f(log_path(job));
  std::string line, last;
  while (std::getline(f, line))
    if (!line.empty()) last = line;
  return last;
}

std::string describe_status(const Job& job, int status) {
  if (status == 0) return "done";
  const std::string last = last_log_line(job);
  return fmt::format("FAILED (exit {}){}{}", status, last.empty() ? "" : ": ", last);
}

void require_writable_dir(const std::string& dir, const std::string& option) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw ConfigError(option, fmt::format("cannot create the output directory {}: {}", dir, ec.message()));
  const std::string probe = fmt::format("{}/.ccsim-write-test{}", dir, getpid());
  std::ofstream f(probe);
  f << "x";
  f.close();
  const bool ok = static_cast<bool>(f);
  std::remove(probe.c_str());
  if (!ok) throw ConfigError(option, fmt::format("cannot write in the output directory {}", dir));
}

}  // namespace ccsim
