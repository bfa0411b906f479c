#include "waves.h"

#include <filesystem>
#include <fstream>
#include <map>

#include "bench_contention_counters.h"
#include "bench_contention_degree_unit.h"
#include "bench_last_hop_scheduler.h"
#include "bench_token_throttler.h"
#include "rtl_models.h"
#include "vcd.h"

namespace ccsim::tb {

const std::vector<std::string>& wave_blocks() {
  static const std::vector<std::string> blocks = {"contention_degree_unit", "contention_counters", "token_throttler",
                                                  "last_hop_scheduler"};
  return blocks;
}

const std::vector<WaveGroup>& wave_groups(const std::string& block) {
  static const std::map<std::string, std::vector<WaveGroup>> groups = {
      {"contention_degree_unit",
       {{"Clock and reset", {"clk_i", "rst_ni"}},
        {"D_cr samples in", {"dcr_i"}},
        {"Windows (N samples, B-cycle intervals, M bounds)",
         {"sample_ptr_q", "sample_full_q", "phase_q", "bound_ptr_q", "bound_full_q"}},
        {"Interval max/min", {"cur_max_q", "cur_min_q"}},
        {"Moving sums SD, SMax, SMin", {"sum_dcr_q", "sum_max_q", "sum_min_q"}},
        {"Congested (metric > 1)", {"congested_o"}}}},
      {"contention_counters",
       {{"Clock and reset", {"clk_i", "rst_ni"}},
        {"Head at input front (inc) / tail leaves (dec)", {"inc_valid_i", "inc_port_i", "dec_valid_i", "dec_port_i"}},
        {"Contention counters", {"count_q", "contended_o"}},
        {"ECtN partial array", {"pinc_valid_i", "pinc_link_i", "pdec_valid_i", "pdec_link_i", "partial_q"}},
        {"ECtN broadcast", {"timer_q", "bcast_valid_o", "bcast_partial_o"}},
        {"ECtN received and combined arrays",
         {"rx_valid_i", "rx_router_i", "rx_seen_q", "rx_sum_q", "combined_o", "combined_contended_o"}}}},
      {"token_throttler",
       {{"Clock and reset", {"clk_i", "rst_ni"}},
        {"Throttle control packets", {"throttle_valid_i", "throttle_dest_i", "throttle_dt_i", "overflow_o"}},
        {"Injection (Algorithm 1)",
         {"query_dest_i", "query_size_i", "query_eligible_o", "query_throttled_o", "inject_valid_i", "inject_dest_i",
          "inject_size_i", "inject_ok_o"}},
        {"Table: dest, D_t, scaled tokens", {"valid_q", "dest_q", "dt_q", "tokens_q"}},
        {"Generation rate and unthrottle",
         {"gen_valid_i", "gen_dest_i", "gen_size_i", "full_valid_i", "full_dest_i", "nic_full_i", "gen_q", "epoch_q",
          "full_q", "unthrottle_o"}}}},
      {"last_hop_scheduler",
       {{"Clock, reset, time", {"clk_i", "rst_ni", "now_i"}},
        {"Speculative heads and reservation requests", {"req_valid_i", "req_spec_i", "req_ep_i", "req_size_i"}},
        {"Drop and grant", {"drop_o", "grant_valid_o", "grant_time_o"}},
        {"Queued flits per endpoint",
         {"enq_valid_i", "enq_ep_i", "enq_flits_i", "deq_valid_i", "deq_ep_i", "deq_flits_i", "queued_q"}},
        {"Reservation register next_free", {"next_free_q"}}}},
  };
  return groups.at(block);
}

namespace {
constexpr uint64_t kWaveCycles = 3000;
}  // namespace

bool write_gtkw(const std::string& gtkw, const std::string& vcd, const std::string& block, const std::string& title,
                std::string* error) {
  const VcdFile parsed = parse_vcd(vcd);
  if (!parsed.ok) {
    *error = vcd + ": " + parsed.error;
    return false;
  }
  const std::string scope = "TOP.ccsim_" + block;
  std::ofstream out(gtkw);
  out << "[*] ccsim: " << block << " (" << title << ")\n";
  out << "[dumpfile] \"" << vcd << "\"\n";
  out << "[savefile] \"" << gtkw << "\"\n";
  out << "[timestart] 0\n[size] 1600 900\n[pos] -1 -1\n*-6.0 0\n";
  out << "[sst_width] 260\n[signals_width] 320\n[sst_expanded] 1\n[sst_vpaned_height] 300\n";
  for (const auto& g : wave_groups(block)) {
    out << "@800200\n-" << g.name << "\n";
    for (const auto& s : g.signals) {
      const VcdVar* v = parsed.find(scope, s);
      if (!v) {
        *error = "signal " + scope + "." + s + " not in " + vcd;
        return false;
      }
      out << (v->width == 1 ? "@28\n" : "@22\n") << scope << "." << v->name << "\n";
    }
    out << "@1000200\n-" << g.name << "\n";
  }
  out << "[pattern_trace] 1\n[pattern_trace] 0\n";
  return static_cast<bool>(out);
}

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
  return write_gtkw(gtkw, vcd, block, "RTL lock-step run, " + std::to_string(kWaveCycles) + " cycles", error);
}

}  // namespace ccsim::tb
