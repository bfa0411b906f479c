// Averages the result documents of runs that differ only in their seed
// (`--seeds K`): numbers and arrays of numbers element-wise, flags (saturated,
// deadlock) true if any run's is; other values from the first run.
#pragma once
#include <nlohmann/json.hpp>
#include <vector>

namespace ccsim {

// Adds "seeds" (the seeds used) and "stddev" (sample standard deviation of
// every top-level number across the runs).
nlohmann::json average_results(const std::vector<nlohmann::json>& runs);

}  // namespace ccsim
