// One simulation from a validated config to its result document.
#pragma once
#include <nlohmann/json.hpp>

#include "core/params.h"

namespace ccsim {

// Builds the network, runs it and returns the result JSON. Throws ConfigError
// for impossible configs and SimError when an invariant breaks. In-process
// callers may run many simulations as long as sim.kernel is "direct".
nlohmann::json simulate(const Config& cfg);

}  // namespace ccsim
