// Per-channel utilization in the measured window (sim.channel_stats = true):
// flits/cycle on every router output port and every injection channel, their
// mean and maximum by channel kind, and the busiest channels. Links count the
// flits they carry; this takes the counts at the window's first and last
// cycle, so a run without it pays nothing but the count.
#pragma once
#include <nlohmann/json.hpp>
#include <vector>

#include "core/link.h"
#include "core/types.h"
#include "topology/topology.h"

namespace ccsim {

class ChannelStats {
 public:
  ChannelStats(const Topology& topo, Cycle warmup, Cycle measure);
  // The channel from output `port` of router `router`, or from node `node` into the network (router = -1).
  void add(const Link* link, int router, int port, int node);
  // Called at the top of every simulated cycle (the loop may skip idle cycles,
  // never past the window's start or end with flits to send).
  void observe(Cycle now) {
    if (now >= start_ && !opened_) take(start_counts_, opened_);
    if (now >= end_ && !closed_) take(end_counts_, closed_);
  }
  nlohmann::json json();
  void end_window(Cycle at) { end_ = at; }  // the run's window ends early (every motif has finished)

 private:
  struct Channel {
    const Link* link;
    int router, port, node;
  };
  void take(std::vector<int64_t>& counts, bool& done);
  const Topology& topo_;
  Cycle start_, end_;
  std::vector<Channel> channels_;
  std::vector<int64_t> start_counts_, end_counts_;
  bool opened_ = false, closed_ = false;
};

}  // namespace ccsim
