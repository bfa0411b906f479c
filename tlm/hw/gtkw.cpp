#include "hw/gtkw.h"

#include <fstream>
#include <iostream>
#include <map>

#include "hw/vcd_reader.h"

namespace ccsim::hw {

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

void write_gtkw_for(const std::string& vcd, const char* rtl_module) {
  std::string error;
  const std::string gtkw = vcd.substr(0, vcd.size() - 4) + ".gtkw";
  if (!write_gtkw(gtkw, vcd, rtl_module, "ccsim network run", &error))
    std::cerr << "ccsim: " << gtkw << ": " << error << "\n";  // a destructor must not throw
}

}  // namespace ccsim::hw
