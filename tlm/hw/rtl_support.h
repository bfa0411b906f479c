// Shared pieces of the RTL-in-the-loop adapters (tlm/hw/rtl_*.cpp): picking the verilated model
// whose parameters match the network's block configuration, the VCD path of a traced instance,
// and the errors (lane overflow, lock-step divergence).
#pragma once
#include <fmt/format.h>

#include <memory>
#include <string>

#include "core/params.h"  // ConfigError
#include "core/sim_error.h"
#include "hw/selection.h"
#include "hw/mismatch.h"
#include "hw/rtl_params.h"

namespace ccsim::hw {

// <prefix>_<instance>_<block>.vcd ("router:17" -> router17), or "" if the instance is not traced.
std::string vcd_path(const Selection& s, const std::string& instance, const char* block);

[[noreturn]] inline void lane_overflow(const std::string& instance, const char* block, const char* lanes, int n) {
  throw SimError(
      fmt::format("{} {} (RTL): more than {} = {} events in one cycle; raise {} in "
                  "rtl/network_models.cmake",
                  instance, block, lanes, n, lanes));
}

[[noreturn]] inline void diverged(const std::string& instance, const char* block, const Mismatch& mm) {
  throw SimError(fmt::format("lockstep: {} {}: RTL and reference differ at {} (expected: reference, actual: RTL)",
                             instance, block, mm.describe()));
}

[[noreturn]] inline void call_diverged(const std::string& instance, const char* block, int64_t cycle, const char* call,
                                       uint64_t ref, uint64_t rtl) {
  throw SimError(
      fmt::format("lockstep: {} {}: RTL and reference differ at cycle {}: {} returned {} "
                  "(reference) and {} (RTL)",
                  instance, block, cycle, call, ref, rtl));
}

// No verilated model has the network's parameters: one line naming the key, what was needed
// (`wanted`, as a parameter string to add) and what this build has.
[[noreturn]] inline void no_model(Block b, const std::string& wanted, const std::string& compiled) {
  const char* module = all_blocks()[static_cast<size_t>(b)].module;
  throw ConfigError(std::string("hardware.") + to_string(b),
                    fmt::format("rtl: no verilated {} with {}; this build has: {}. Add \"net_<name>|{}|{}\" "
                                "to rtl/network_models.cmake and rebuild",
                                module, wanted, compiled.empty() ? "none" : compiled, module, wanted));
}

}  // namespace ccsim::hw

// One entry of an adapter factory's model list (an X-macro of rtl_models.h): if model V's
// parameter string PARAMS, read by TO_CONFIG, renders like `wanted`, return ADAPTER<V> for it;
// otherwise add NAME to `compiled`. Expects `render`, `wanted`, `compiled`, `s` and `instance`.
#define CCSIM_HW_PICK(ADAPTER, TO_CONFIG, V, NAME, PARAMS)                                \
  {                                                                                       \
    const auto model = TO_CONFIG(Params(PARAMS));                                         \
    if (render(model) == wanted) return std::make_unique<ADAPTER<V>>(model, s, instance); \
    compiled += std::string(compiled.empty() ? "" : ", ") + #NAME;                        \
  }
