// Where and how a run ran (results: run), and the two facts a sweep needs to
// tell a finished point from a stale one: the model version and the digest of
// the point's effective config.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "core/params.h"

namespace ccsim {

// Hash of tests/results_gate/digests.txt at build time: the same value means the
// same results (scripts/repro/runner.py computes the same hash).
const char* model_version();
// Digest of the settings that decide the results: the effective config without
// the [launcher] keys, sim.threads and sim.kernel (none changes a result), and the seed count.
std::string config_digest(const Config& cfg, int seeds);
// host, launcher, rank or array task, threads, model, config_digest. The launcher
// and rank come from CCSIM_LAUNCHER / CCSIM_RANK, set by the sweep that started
// the run; the array task from Slurm's SLURM_ARRAY_JOB_ID / SLURM_ARRAY_TASK_ID.
nlohmann::json run_record(const Config& cfg, int seeds);

}  // namespace ccsim
