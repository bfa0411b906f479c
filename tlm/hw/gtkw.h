// GTKWave save files (.gtkw) for the VCDs of the RTL blocks, from `make waves` and from RTL in
// the loop (hardware.trace): the meaningful signals of each block, grouped.
#pragma once

#include <string>
#include <vector>

namespace ccsim::hw {

// Writes a GTKWave save file for a VCD of RTL module `block` (top instance TOP.ccsim_<block>), with the
// signal groups below. False with *error set if the VCD does not parse or lacks a signal.
bool write_gtkw(const std::string& gtkw, const std::string& vcd, const std::string& block, const std::string& title,
                std::string* error);
// The .gtkw beside a finished VCD of a network run (<vcd without .vcd>.gtkw); a failure is
// printed, not thrown (it runs in a destructor).
void write_gtkw_for(const std::string& vcd, const char* rtl_module);

// The signals of a block's .gtkw, by group: {group, {signal base names in the top module}}.
struct WaveGroup {
  std::string name;
  std::vector<std::string> signals;
};
const std::vector<WaveGroup>& wave_groups(const std::string& block);

}  // namespace ccsim::hw
