// Which implementation of each hardware block the network runs ([hardware] section): the C++
// reference (tlm/blocks/) or the verilated RTL (rtl/, RTL in the loop), optionally both in
// lock step, and which instance's RTL writes a VCD.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/params.h"
#include "hw_block_list.h"

namespace ccsim::hw {

// The hardware blocks, from rtl/blocks.txt.
enum class Block {
#define CCSIM_HW_ENUM(NAME, KEY, MODULE, PREFIX, DESCRIPTION) NAME,
  CCSIM_HW_BLOCKS(CCSIM_HW_ENUM)
#undef CCSIM_HW_ENUM
};
struct BlockInfo {
  Block block;
  const char* key;          // [hardware] <key>
  const char* module;       // RTL module rtl/ccsim_<module>.sv
  const char* description;  // what it is and where it sits
};
// Every block, in rtl/blocks.txt's order.
const std::vector<BlockInfo>& all_blocks();
inline constexpr int kNumBlocks = 0
#define CCSIM_HW_COUNT(NAME, KEY, MODULE, PREFIX, DESCRIPTION) +1
    CCSIM_HW_BLOCKS(CCSIM_HW_COUNT)
#undef CCSIM_HW_COUNT
    ;
// The [hardware] key of a block.
inline const char* to_string(Block b) { return all_blocks()[static_cast<size_t>(b)].key; }

struct Selection {
  bool rtl[kNumBlocks] = {};      // by Block
  bool lockstep = false;          // run the reference beside the RTL, stop at the first difference
  bool mutate_reference = false;  // test only: a wrong reference, so lockstep has something to catch
  std::string trace;              // "router:N" or "nic:N": that instance's blocks write a VCD
  int64_t trace_start = 0, trace_cycles = 2000;
  std::string trace_prefix = "ccsim_trace";

  static Selection from_config(const Config& c);
  // RTL for this block at this instance ("router:3", "nic:12"); the traced instance always is.
  bool use_rtl(Block b, const std::string& instance) const { return rtl[static_cast<int>(b)] || traced(instance); }
  bool traced(const std::string& instance) const { return !trace.empty() && trace == instance; }
};

// The [hardware] keys.
std::vector<ParamSpec> hardware_params();
// True when this build has the verilated blocks (CCSIM_BUILD_HW).
bool rtl_available();

}  // namespace ccsim::hw
