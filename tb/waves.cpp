#include "waves.h"

#include <filesystem>

#include "bench_contention_counters.h"
#include "bench_contention_degree_unit.h"
#include "bench_last_hop_scheduler.h"
#include "bench_token_throttler.h"
#include "hw/gtkw.h"
#include "hw_block_list.h"
#include "rtl_models.h"

namespace ccsim::tb {

const std::vector<std::string>& wave_blocks() {
  static const std::vector<std::string> blocks = {
#define CCSIM_WAVE_BLOCK(NAME, KEY, MODULE, PREFIX, DESCRIPTION) MODULE,
      CCSIM_HW_BLOCKS(CCSIM_WAVE_BLOCK)
#undef CCSIM_WAVE_BLOCK
  };
  return blocks;
}

namespace {
constexpr uint64_t kWaveCycles = 3000;
}  // namespace

bool write_block_waves(const std::string& dir, const std::string& block, std::string* error) {
  namespace fs = std::filesystem;
  fs::create_directories(dir);
  const std::string vcd = fs::absolute(fs::path(dir) / (block + ".vcd")).string();
  const std::string gtkw = fs::absolute(fs::path(dir) / (block + ".gtkw")).string();
  RunResult r;
  if (block == "contention_degree_unit") {
    r = cdu::run_random<Vcdu_r15>("Radix=15", kWaveCycles, 1, 0, vcd);
  } else if (block == "contention_counters") {
    r = cc::run_random<Vcc_r15>("NumPorts=15,NumGlobalLinks=32,NumGroupRouters=8,NumIncPorts=4,NumDecPorts=4",
                                kWaveCycles, 1, 0, vcd);
  } else if (block == "token_throttler") {
    r = tt::run_random<Vtt_t4>("NumEntries=4,DestWidth=4,DtWidth=4,SizeWidth=4,TokenWidth=9,SrcEpoch=60", kWaveCycles,
                               1, 0, vcd);
  } else if (block == "last_hop_scheduler") {
    r = lhs::run_random<Vlhs_small>(
        "NumEndpoints=3,NumReqPorts=4,NumEnqPorts=3,NumDeqPorts=2,CountWidth=7,DropThreshold=40,"
        "ThresholdStrict=1,TimeWidth=12,SizeWidth=5,FlitsWidth=3",
        kWaveCycles, 1, 0, vcd);
  } else {
    *error = "unknown block " + block;
    return false;
  }
  if (r.mismatch) {
    *error = "RTL/reference mismatch while tracing: " + r.message;
    return false;
  }
  return hw::write_gtkw(gtkw, vcd, block, "RTL lock-step run, " + std::to_string(kWaveCycles) + " cycles", error);
}

}  // namespace ccsim::tb
