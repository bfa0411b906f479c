// A small strict VCD reader: checks the waves of the testbenches and of RTL in the loop before
// their .gtkw is written (TOOLCHAIN.md: vcd2fst and GTKWave accept junk and truncated files, so
// they cannot be the check).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ccsim::hw {

struct VcdVar {
  std::string path;  // scopes joined by '.', e.g. "TOP.ccsim_token_throttler"
  std::string name;  // reference as GTKWave wants it, e.g. "dest_q[175:0]" or "clk_i"
  std::string base;  // name without the bit range, e.g. "dest_q"
  std::string id;    // identifier code
  int width = 0;
};

struct VcdFile {
  bool ok = false;
  std::string error;  // first problem found (with line number)
  std::string timescale;
  std::vector<VcdVar> vars;
  uint64_t timestamps = 0;  // number of '#t' lines
  uint64_t last_time = 0;
  uint64_t value_changes = 0;
  std::map<std::string, uint64_t> changes_per_id;

  // The variable `base` in scope `path`, or nullptr.
  const VcdVar* find(const std::string& path, const std::string& base) const;
};

// Parse and validate: header sections closed with $end, balanced scopes, $enddefinitions,
// declared identifiers only, widths respected, strictly increasing timestamps, last line
// complete. ok == false with an error otherwise.
VcdFile parse_vcd(const std::string& file);

}  // namespace ccsim::hw
