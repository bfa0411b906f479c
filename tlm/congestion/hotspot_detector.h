// CBCM's destination side (000 section IV-B2, spec A.5.5): one per endpoint.
// A list of sources (bit vector) that may cause endpoint congestion. The first
// marked packet starts an observation epoch and lists its source; each further
// marked packet lists its source; an unmarked packet empties the list (a path
// without contention exists: network congestion, not endpoint congestion).
// When an epoch ends with every packet marked and at least `min_dt` sources
// listed, the endpoint is a hotspot: from then on every sender is listed,
// marked or not, and D_t (the number listed) is sent to each of them in
// 'throttle' packets. After a batch of D_t packets no control packet goes for
// D_t / epsilon cycles; then a changed D_t (or an 'unthrottle' that removed a
// source) sends a new batch to every listed source. The hotspot state ends
// when the list empties, or (exit_on_unmarked, ours) after an epoch in which
// an unmarked packet arrived: under UR a falsely detected destination keeps
// hearing from new senders, so its list never empties.
#pragma once
#include <cstdint>
#include <vector>

#include "core/types.h"

namespace ccsim {

struct DetectorParams {
  Cycle epoch = 2000;            // observation epoch (cycles)                         [ours]
  int min_dt = 2;                // least D_t that makes a hotspot                     [ours, from 000 V-B]
  double epsilon = 0.05;         // control-packet bandwidth share                     [000 IV-B2's example]
  bool exit_on_unmarked = true;  // an epoch with an unmarked packet ends the hotspot state [ours]
};

class HotspotDetector {
 public:
  enum class Mode : uint8_t { Idle, Observe, Hotspot };

  HotspotDetector(int num_nodes, const DetectorParams& p);

  // A data packet from `src` arrived in cycle `now`.
  void on_data(int src, bool marked, Cycle now);
  // Source `src` unthrottled itself.
  void on_unthrottle(int src, Cycle now);
  // Advances to `now`. If a throttle batch is due, puts its destinations in
  // `to` (ascending) and returns its D_t; otherwise returns 0.
  int poll(Cycle now, std::vector<int>& to);
  // The cycle at which poll() next has a time-driven change, or -1.
  Cycle next_event() const;

  Mode mode() const { return mode_; }
  int listed() const { return count_; }
  int64_t detections() const { return detections_; }
  int64_t exits() const { return exits_; }

 private:
  void settle(Cycle now);  // ends an elapsed observation epoch
  void add(int src);
  void clear();
  bool owed() const { return resend_ || count_ != dt_sent_; }

  DetectorParams p_;
  std::vector<uint64_t> list_;  // bit per source node
  int count_ = 0;
  Mode mode_ = Mode::Idle;
  Cycle epoch_end_ = 0, quiet_until_ = 0;
  int dt_sent_ = 0;        // D_t of the last batch (0: none)
  bool resend_ = false;    // a batch is owed even if D_t is unchanged
  bool unmarked_ = false;  // an unmarked packet arrived in this hotspot epoch
  int64_t detections_ = 0, exits_ = 0;
};

}  // namespace ccsim
