// One reservation-scheduler block (tlm/blocks/last_hop_scheduler.h, or its RTL with
// [hardware] lhrp_scheduler = "rtl") per switch (LHRP) or per endpoint (SRP's destination
// scheduler). A block registers its inputs at a clock edge, but switches and NICs step only when
// busy, so each block's edge is taken lazily, once per cycle in which it is used.
#pragma once
#include <fmt/format.h>

#include <memory>
#include <vector>

#include "core/types.h"
#include "hw/blocks.h"

namespace ccsim {

class SchedulerBank {
 public:
  // n blocks for instances "<kind>:0" .. "<kind>:n-1" (kind: router or nic).
  void assign(int n, const blocks::LastHopScheduler::Config& cfg, const hw::Selection& hardware, const char* kind) {
    blocks_.clear();
    for (int i = 0; i < n; ++i)
      blocks_.push_back(hw::make_last_hop_scheduler(cfg, hardware, fmt::format("{}:{}", kind, i)));
    ticked_.assign(n, -1);
  }
  // Block i with the counts of every earlier cycle registered.
  hw::LastHopScheduler& at(int i, Cycle now) {
    if (ticked_[i] < now) {
      blocks_[i]->tick(ticked_[i]);
      ticked_[i] = now;
    }
    return *blocks_[i];
  }

 private:
  std::vector<std::unique_ptr<hw::LastHopScheduler>> blocks_;
  std::vector<Cycle> ticked_;  // last cycle each one was used in
};

}  // namespace ccsim
