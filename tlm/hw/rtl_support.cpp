#include "hw/rtl_support.h"

#include <algorithm>
#include <iostream>

#include "waves.h"

namespace ccsim::hw {

bool rtl_available() { return true; }

std::string vcd_path(const Selection& s, const std::string& instance, const char* block) {
  if (!s.traced(instance)) return "";
  std::string name = instance;
  name.erase(std::remove(name.begin(), name.end(), ':'), name.end());
  return fmt::format("{}_{}_{}.vcd", s.trace_prefix, name, block);
}

void write_gtkw_for(const std::string& vcd, const char* rtl_module) {
  std::string error;
  const std::string gtkw = vcd.substr(0, vcd.size() - 4) + ".gtkw";
  if (!tb::write_gtkw(gtkw, vcd, rtl_module, "ccsim network run", &error))
    std::cerr << "ccsim: " << gtkw << ": " << error << "\n";  // a destructor must not throw
}

}  // namespace ccsim::hw
