// Settings derived from the config once, for the network and every mechanism:
// the "0 = default" buffer depths resolved, link latencies and buffer depths
// by port kind, the switching mode, VCs per class, the measurement window and
// the hardware selection. Mechanisms read these instead of re-deriving them
// from config keys (protocols through ProtocolContext::settings()).
#pragma once
#include "core/params.h"
#include "core/types.h"
#include "hw/selection.h"

namespace ccsim {

struct NetworkSettings {
  bool cut_through = true;         // router.switching = "vct"
  bool deadlock_recovery = false;  // routing.deadlock = "recovery"
  int vcs_per_class = 1;
  int router_latency = 1;
  int output_buffer = 1;            // flits per output VC
  int buffer_depth[3] = {1, 1, 1};  // flits per input VC, by PortKind (terminal, local, global)
  int link_latency[3] = {1, 1, 1};  // cycles, by PortKind
  Cycle warmup = 0, measure = 1, series_window = 0;
  hw::Selection hardware;

  int depth(PortKind k) const { return buffer_depth[static_cast<int>(k)]; }
  int latency(PortKind k) const { return link_latency[static_cast<int>(k)]; }
  static NetworkSettings from_config(const Config& c);
};

}  // namespace ccsim
