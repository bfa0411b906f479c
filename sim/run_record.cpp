#include "run_record.h"

#include <unistd.h>

#include <cstdlib>
#include <fmt/format.h>

#include "config_loader.h"
#include "registry.h"

namespace ccsim {

namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

uint64_t fnv1a(const std::string& text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  return h;
}

}  // namespace

const char* model_version() { return CCSIM_MODEL_VERSION; }

std::string config_digest(const Config& cfg, int seeds) {
  Config c = cfg;
  for (auto& s : core_params())
    if (s.key.rfind("launcher.", 0) == 0) c.set(s.key, s.default_value);
  c.set("sim.threads", int64_t{1});
  c.set("sim.kernel", std::string("direct"));
  return fmt::format("{:016x}", fnv1a(config_to_toml(c) + fmt::format("seeds={}", seeds)));
}

nlohmann::json run_record(const Config& cfg, int seeds) {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  nlohmann::json r = {{"host", host},
                      {"launcher", env("CCSIM_LAUNCHER").empty() ? "direct" : env("CCSIM_LAUNCHER")},
                      {"threads", cfg.get_int("sim.threads")},
                      {"model", model_version()},
                      {"config_digest", config_digest(cfg, seeds)}};
  if (!env("CCSIM_RANK").empty()) r["rank"] = std::stoi(env("CCSIM_RANK"));
  if (!env("SLURM_ARRAY_TASK_ID").empty())
    r["array_task"] = env("SLURM_ARRAY_JOB_ID") + "_" + env("SLURM_ARRAY_TASK_ID");
  else if (!env("SLURM_JOB_ID").empty())
    r["slurm_job"] = env("SLURM_JOB_ID");
  return r;
}

}  // namespace ccsim
