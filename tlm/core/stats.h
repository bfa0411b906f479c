// Statistics of measured packets and messages: means, exact percentiles (a
// histogram with one-cycle bins up to 64k cycles, exact values beyond), hops
// and misrouting. One accumulator for the whole run and one per traffic class.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace ccsim {

class LatencyHistogram {
 public:
  void add(int64_t v) {
    if (v < kBins) {
      if (bins_.empty()) bins_.assign(kBins, 0);
      ++bins_[v];
    } else {
      big_.push_back(v);
    }
    ++count_;
  }
  int64_t count() const { return count_; }
  // Smallest value v with at least q of the samples <= v.
  int64_t quantile(double q) const {
    if (count_ == 0) return 0;
    int64_t rank = static_cast<int64_t>(q * static_cast<double>(count_));
    if (rank >= count_) rank = count_ - 1;
    int64_t seen = 0;
    for (int64_t v = 0; v < static_cast<int64_t>(bins_.size()); ++v) {
      seen += bins_[v];
      if (seen > rank) return v;
    }
    std::vector<int64_t> b = big_;
    std::sort(b.begin(), b.end());
    return b[rank - seen];
  }

 private:
  static constexpr int64_t kBins = 1 << 16;
  std::vector<int64_t> bins_;
  std::vector<int64_t> big_;
  int64_t count_ = 0;
};

struct PacketStats {
  int64_t packets = 0;
  int64_t flits = 0;
  double latency_sum = 0, network_latency_sum = 0, hops_sum = 0;
  int64_t misrouted = 0;
  LatencyHistogram latency;
  int64_t messages = 0;
  double message_latency_sum = 0;
  int64_t window_flits_accepted = 0;   // flits ejected inside the window (any packet)
  int64_t window_flits_generated = 0;  // flits created inside the window
  int64_t window_flits_refused = 0;    // flits offered inside the window that a full source queue refused
  int64_t sources = 0;                 // nodes that generate this class
  // Data packets delivered inside the window, whenever created: under
  // inadmissible load the window's own packets may never all arrive.
  int64_t window_packets_delivered = 0;
  double window_network_latency_sum = 0;
};

}  // namespace ccsim
