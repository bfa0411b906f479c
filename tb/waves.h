// `make waves`: one VCD per RTL block (a few thousand cycles of the lock-step random run,
// RTL compared with the reference while tracing) plus a GTKWave save file (.gtkw) that opens
// it with the meaningful signals grouped.
#pragma once

#include <string>
#include <vector>

namespace ccsim::tb {

// The RTL modules of rtl/blocks.txt: contention_degree_unit, contention_counters, ...
const std::vector<std::string>& wave_blocks();

// Writes <dir>/<block>.vcd and <dir>/<block>.gtkw. Returns false with *error set if the run
// mismatched, the VCD does not parse, or a grouped signal is missing from it.
bool write_block_waves(const std::string& dir, const std::string& block, std::string* error);

}  // namespace ccsim::tb
