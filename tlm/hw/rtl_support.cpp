#include "hw/rtl_support.h"

#include <algorithm>

namespace ccsim::hw {

bool rtl_available() { return true; }

std::string vcd_path(const Selection& s, const std::string& instance, const char* block) {
  if (!s.traced(instance)) return "";
  std::string name = instance;
  name.erase(std::remove(name.begin(), name.end(), ':'), name.end());
  return fmt::format("{}_{}_{}.vcd", s.trace_prefix, name, block);
}

}  // namespace ccsim::hw
