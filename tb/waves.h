// `make waves`: one VCD per RTL block (a few thousand cycles of the lock-step random run,
// RTL compared with the reference while tracing) plus a GTKWave save file (.gtkw) that opens
// it with the meaningful signals grouped.
#pragma once

#include <string>
#include <vector>

namespace ccsim::tb {

// Block names: contention_degree_unit, contention_counters, token_throttler,
// last_hop_scheduler.
const std::vector<std::string>& wave_blocks();

// Writes <dir>/<block>.vcd and <dir>/<block>.gtkw. Returns false with *error set if the run
// mismatched, the VCD does not parse, or a grouped signal is missing from it.
bool write_block_waves(const std::string& dir, const std::string& block, std::string* error);

// Writes a GTKWave save file for a VCD of RTL module `block` (top instance TOP.ccsim_<block>), with the
// signal groups below. False with *error set if the VCD does not parse or lacks a signal.
bool write_gtkw(const std::string& gtkw, const std::string& vcd, const std::string& block, const std::string& title,
                std::string* error);

// The signals of a block's .gtkw, by group: {group, {signal base names in the top module}}.
struct WaveGroup {
  std::string name;
  std::vector<std::string> signals;
};
const std::vector<WaveGroup>& wave_groups(const std::string& block);

}  // namespace ccsim::tb
