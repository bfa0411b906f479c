// What a run measures, overall and per traffic class: packet and message
// latency (means, percentiles), hops, misrouting, generated and accepted
// throughput, accepted throughput of every source node (fairness), and an
// optional time series per window (transients).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/packet.h"
#include "core/stats.h"
#include "core/types.h"

namespace ccsim {

class RunStats {
 public:
  // Measurement window [warmup, warmup + measure); series windows of
  // `series_window` cycles from cycle 0 to the window's end (0: none); a
  // packet's latency and misrouting count in the window of its creation
  // (`by_creation`) or of its delivery.
  RunStats(int nodes, Cycle warmup, Cycle measure, Cycle series_window, double clock_ghz, bool by_creation = false);

  // Returns the class index. `sources`: nodes that may generate the class.
  int add_class(const std::string& name, double offered_load, const std::vector<int>& sources);

  bool in_window(Cycle t) const { return t >= warmup_ && t < warmup_ + measure_; }
  // The window ends early, at cycle `at` (every motif of the run has finished).
  void end_window(Cycle at);
  void generated(int cls, int64_t flits) {
    total_.window_flits_generated += flits;
    classes_[cls].stats.window_flits_generated += flits;
  }
  // Sources may refuse messages (a bounded source queue): results then give refused_load.
  void sources_may_refuse() { refusals_ = true; }
  // A message offered in the window that its source refused (source queue full).
  void refused(int cls, int64_t flits) {
    total_.window_flits_refused += flits;
    classes_[cls].stats.window_flits_refused += flits;
  }
  // A flit of `p` reached its destination in cycle `now`.
  void flit_ejected(const Packet& p, Cycle now) {
    if (!in_window(now)) return;
    ++ejected_by_kind_[p.kind];
    if (p.kind != kDataPacket) return;
    ++total_.window_flits_accepted;
    ClassData& c = classes_[p.traffic_class];
    ++c.stats.window_flits_accepted;
    ++node_flits_[p.src];
    ++c.node_flits[p.src];
  }
  void packet_delivered(const Packet& p, Cycle now);
  void message_delivered(int cls, Cycle latency);

  // Overall figures at the top level, per class under "classes", the series
  // under "series", the ejection-channel utilization by packet kind under
  // "ejection". Overall throughput is per network node, a class's per source
  // node of the class.
  nlohmann::json json(double offered_load) const;
  // The window accepted under 95% of what its sources offered (generated or
  // refused): the sources outrun the network.
  bool backlogged() const {
    const int64_t offered = total_.window_flits_generated + total_.window_flits_refused;
    return offered > 0 && static_cast<double>(total_.window_flits_accepted) < 0.95 * static_cast<double>(offered);
  }

 private:
  struct Bin {
    int64_t packets = 0, flits = 0, misrouted = 0;
    double latency_sum = 0;
  };
  struct ClassData {
    std::string name;
    double offered_load = 0;
    PacketStats stats;
    std::vector<int> sources;
    std::vector<int64_t> node_flits;  // accepted flits in the window, by source node
    std::vector<Bin> series;
  };
  nlohmann::json stats_json(const PacketStats& s, double offered, double nodes, const std::vector<int64_t>& node_flits,
                            const std::vector<int>& sources) const;
  nlohmann::json series_json(const std::vector<Bin>& bins, double nodes) const;

  int nodes_;
  Cycle warmup_, measure_, window_;
  bool by_creation_;
  bool refusals_ = false;
  double clock_ghz_;
  size_t bins_ = 0;
  PacketStats total_;
  std::vector<int64_t> node_flits_;
  std::vector<int> all_sources_;
  std::vector<Bin> series_;
  std::vector<ClassData> classes_;
  std::vector<int64_t> ejected_by_kind_ =
      std::vector<int64_t>(packet_kind_names().size());  // flits ejected in the window
};

}  // namespace ccsim
