// The contention counters of every router of a dragonfly (paper 002 III-B..D):
// one contention-counter block (tlm/blocks/contention_counters.h, the C++
// reference of the RTL) per router, fed by the input-queue events the router
// reports to its routing function, plus ECtN's broadcast of partial arrays
// inside each group.
//
// Routers step only when busy, so each block's clock edge is taken lazily: on
// the first use in a cycle, one tick() registers the events of the last cycle
// the block was used in (idle cycles change no counter). ECtN broadcasts happen
// in cycles 0, period, 2*period, ... in every group at once; the arrays sent in
// cycle T are used by the receivers from cycle T + delay. The first use of any
// block in or after such a cycle performs the broadcast (or delivery) for all
// routers, before any event of that cycle is registered.
#pragma once
#include <cstdint>
#include <vector>

#include <memory>
#include <optional>

#include "blocks/contention_counters.h"
#include "routing/contention_counter_mean.h"
#include "core/types.h"
#include "hw/blocks.h"
#include "topology/dragonfly.h"

namespace ccsim {

struct ContentionCounterParams {
  int threshold = 6;  // local counters: contended at >= threshold
  bool ectn = false;  // keep and broadcast the partial arrays
  int combined_threshold = 10;
  int broadcast_period = 100;  // cycles
  int broadcast_delay = 10;    // cycles from a broadcast until its values are used (< period)
  hw::Selection hardware;      // reference or RTL counters ([hardware] contention_counters)
  // routing.counter_stats: average the counters over the measured window [mean_start, mean_end).
  bool report_mean = false;
  Cycle mean_start = 0, mean_end = 0;
};

class ContentionCounterBank {
 public:
  ContentionCounterBank(const Dragonfly& df, const ContentionCounterParams& params);

  // Input-queue events of router r (see RoutingFunction::on_head_at_front) for
  // a packet whose minimal output is `min_out`; for ECtN, `link` is the group's
  // global link the packet's partial counter tracks, -1 for none.
  void head_at_front(int r, int min_out, int link, Cycle now);
  void tail_left(int r, int min_out, int link, Cycle now);

  // Counter of output `port` of router r, as registered by the end of the last cycle.
  bool contended(int r, int port, Cycle now) { return block(r, now).contended(port); }
  // ECtN: combined counter of the group's global link `link` (group-output index) at router r.
  bool combined_contended(int r, int link, Cycle now) { return block(r, now).combined_contended(link); }
  // Group-output index (0 .. a*h-1) of global port `port` of router r.
  int group_link(int r, int port) const { return df_.index_in_group(r) * df_.h() + port - df_.first_global_port(); }
  // The mean counter over the measured window (ContentionCounterParams::report_mean), if reported.
  std::optional<double> mean() const;
  // Whether each router's counters are touched by that router only (no ECtN broadcast) and run
  // as the C++ reference: routers may then step on their own threads (sim.threads).
  bool per_router() const;

 private:
  hw::ContentionCounters& block(int r, Cycle now);
  void tick_until(int r, Cycle now);
  void run_broadcasts(Cycle now);
  void broadcast();
  void deliver();

  const Dragonfly& df_;
  ContentionCounterParams params_;
  int links_;  // global links per group (a*h)
  std::vector<std::unique_ptr<hw::ContentionCounters>> blocks_;
  std::vector<Cycle> ticked_;  // last cycle each block was used in
  Cycle next_broadcast_ = 0;
  Cycle delivery_ = -1;                       // cycle the last broadcast arrays are used from; -1 when delivered
  std::vector<uint8_t> sent_;                 // per router: its partial array of the last broadcast
  std::vector<ContentionCounterMean> means_;  // per router (report_mean), else empty
};

}  // namespace ccsim
