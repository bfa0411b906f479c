#include "hw/selection.h"

#include <fmt/format.h>

#include <cctype>

namespace ccsim::hw {

const std::vector<BlockInfo>& all_blocks() {
  static const std::vector<BlockInfo> blocks = {
#define CCSIM_HW_INFO(NAME, KEY, MODULE, PREFIX, DESCRIPTION) {Block::NAME, KEY, MODULE, DESCRIPTION},
      CCSIM_HW_BLOCKS(CCSIM_HW_INFO)
#undef CCSIM_HW_INFO
  };
  return blocks;
}

std::vector<ParamSpec> hardware_params() {
  std::vector<ParamSpec> params;
  for (const BlockInfo& b : all_blocks())
    params.push_back(string_param(
        std::string("hardware.") + b.key, "ref",
        fmt::format("{}: C++ reference or verilated RTL (rtl/ccsim_{}.sv)", b.description, b.module), {"ref", "rtl"}));
  const std::vector<ParamSpec> common = {
      string_param("hardware.all", "ref", "rtl: every block above runs as RTL", {"ref", "rtl"}),
      bool_param("hardware.lockstep", false,
                 "run the C++ reference beside every RTL block on the same inputs; the "
                 "first difference stops the run naming the component, port, cycle and both values"),
      bool_param("hardware.mutate_reference", false,
                 "test only: perturb the lock-step reference (its "
                 "test_mutation hook) to show that lockstep catches a divergence"),
      string_param("hardware.trace", "",
                   "write a VCD (+ .gtkw) of the blocks of one instance, \"router:N\" or "
                   "\"nic:N\" (they run as RTL)"),
      int_param("hardware.trace_start", 0, "first cycle of the VCD window", 0),
      int_param("hardware.trace_cycles", 2000, "cycles in the VCD window", 1, 10000000),
      string_param("hardware.trace_prefix", "ccsim_trace", "VCD path prefix: <prefix>_<instance>_<block>.vcd"),
  };
  params.insert(params.end(), common.begin(), common.end());
  return params;
}

Selection Selection::from_config(const Config& c) {
  Selection s;
  const std::string all = c.get_string("hardware.all");
  for (int b = 0; b < kNumBlocks; ++b) {
    const std::string key = std::string("hardware.") + to_string(static_cast<Block>(b));
    s.rtl[b] = all == "rtl" || c.get_string(key) == "rtl";
  }
  s.lockstep = c.get_bool("hardware.lockstep");
  s.mutate_reference = c.get_bool("hardware.mutate_reference");
  s.trace = c.get_string("hardware.trace");
  s.trace_start = c.get_int("hardware.trace_start");
  s.trace_cycles = c.get_int("hardware.trace_cycles");
  s.trace_prefix = c.get_string("hardware.trace_prefix");
  if (!s.trace.empty()) {
    const auto colon = s.trace.find(':');
    const std::string kind = s.trace.substr(0, colon);
    bool number = colon != std::string::npos && colon + 1 < s.trace.size();
    for (size_t i = colon + 1; number && i < s.trace.size(); ++i)
      number = std::isdigit(static_cast<unsigned char>(s.trace[i]));
    if ((kind != "router" && kind != "nic") || !number)
      throw ConfigError("hardware.trace", fmt::format("\"{}\": expected \"router:N\" or \"nic:N\"", s.trace));
  }
  if (!rtl_available()) {
    // Name the key that asked for RTL.
    std::string key = all == "rtl" ? "hardware.all" : !s.trace.empty() ? "hardware.trace" : "";
    for (int b = 0; b < kNumBlocks && key.empty(); ++b)
      if (s.rtl[b]) key = std::string("hardware.") + to_string(static_cast<Block>(b));
    if (!key.empty())
      throw ConfigError(key, "needs a build with the verilated RTL (cmake -DCCSIM_BUILD_HW=ON); this one has none");
  }
  return s;
}

}  // namespace ccsim::hw
