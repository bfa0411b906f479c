// One reservation-scheduler block (tlm/blocks/last_hop_scheduler.h) per switch
// (LHRP) or per endpoint (SRP's destination scheduler). A block registers its
// inputs at a clock edge, but switches and NICs step only when busy, so each
// block's edge is taken lazily, once per cycle in which it is used.
#pragma once
#include <vector>

#include "blocks/last_hop_scheduler.h"
#include "core/types.h"

namespace ccsim {

class SchedulerBank {
 public:
  void assign(int n, const blocks::LastHopScheduler::Config& cfg) {
    blocks_.assign(n, blocks::LastHopScheduler(cfg));
    ticked_.assign(n, -1);
  }
  // Block i with the counts of every earlier cycle registered.
  blocks::LastHopScheduler& at(int i, Cycle now) {
    if (ticked_[i] < now) {
      blocks_[i].tick();
      ticked_[i] = now;
    }
    return blocks_[i];
  }

 private:
  std::vector<blocks::LastHopScheduler> blocks_;
  std::vector<Cycle> ticked_;  // last cycle each one was ticked
};

}  // namespace ccsim
