// The occupancy of every global port of the dragonfly as another router of
// its group sees it `delay` cycles later (PB's saturation flags, piggybacked
// on the local links: 002 IV-A). The occupancies are recorded once per cycle,
// on the first routing call of the cycle (cycles without one route nothing,
// so nothing reads them), in a ring of delay + 1 cycles; a read returns the
// newest record at least `delay` cycles old, 0 before the first one (an empty
// network).
#pragma once
#include <cstdint>
#include <vector>

#include "routing/routing.h"
#include "topology/dragonfly.h"

namespace ccsim {

class DelayedGlobalOccupancy {
 public:
  DelayedGlobalOccupancy(const Dragonfly& df, int delay)
      : df_(df),
        delay_(delay),
        time_(static_cast<size_t>(delay) + 1, -1),
        occ_(time_.size() * df.num_routers() * df.h(), 0) {}

  // Records this cycle's occupancies (once per cycle).
  void record(RouterContext& ctx) {
    const Cycle now = ctx.cycle();
    if (now == recorded_) return;
    recorded_ = now;
    const size_t slot = static_cast<size_t>(now % static_cast<Cycle>(time_.size()));
    time_[slot] = now;
    int32_t* row = &occ_[slot * df_.num_routers() * df_.h()];
    for (int r = 0; r < df_.num_routers(); ++r)
      for (int i = 0; i < df_.h(); ++i) *row++ = ctx.remote_occupancy(r, df_.first_global_port() + i);
  }

  // Global port `port` of `router` as seen `delay` cycles after it was recorded.
  int seen(const RouterContext& ctx, int router, int port) {
    const int slot = slot_seen_at(ctx.cycle());
    if (slot < 0) return 0;
    return occ_[(static_cast<size_t>(slot) * df_.num_routers() + router) * df_.h() + (port - df_.first_global_port())];
  }

 private:
  // The ring slot of the newest record at least `delay` cycles before `now`, or -1.
  int slot_seen_at(Cycle now) {
    if (now == seen_at_) return seen_slot_;
    seen_at_ = now;
    const Cycle want = now - delay_;
    const int n = static_cast<int>(time_.size());
    seen_slot_ = -1;
    if (want >= 0 && time_[want % n] == want) return seen_slot_ = static_cast<int>(want % n);
    for (int s = 0; s < n; ++s)  // a cycle without a record: the newest older one
      if (time_[s] >= 0 && time_[s] <= want && (seen_slot_ < 0 || time_[s] > time_[seen_slot_])) seen_slot_ = s;
    return seen_slot_;
  }

  const Dragonfly& df_;
  int delay_;
  Cycle recorded_ = -1, seen_at_ = -1;
  int seen_slot_ = -1;
  std::vector<Cycle> time_;   // cycle of each ring slot, -1: none yet
  std::vector<int32_t> occ_;  // slot x router x global port
};

}  // namespace ccsim
