#include "core/parallel_nics.h"

#include <fmt/format.h>

#include "congestion/congestion_control.h"
#include "core/params.h"

namespace ccsim {

std::string ParallelNics::obstacle(const Config& cfg, const CongestionControl& cc, bool motifs) {
  if (cc.acts_at_injection())
    return fmt::format("congestion.protocol \"{}\" acts as packets are injected",
                       cfg.get_string("congestion.protocol"));
  return motifs ? "traffic.motif sends on deliveries" : "";
}

ParallelNics::ParallelNics(ThreadTeam& team, const std::vector<Nic*>& nics) : team_(team) {
  for (Nic* n : nics) n->batch = Component::Batch::Nic;
}

void ParallelNics::step(const std::vector<Nic*>& batch, Scheduler& sched, Cycle now) {
  team_.run_ordered(
      batch.size(),
      [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) {
          batch[i]->defer_shared_effects();
          batch[i]->take_arrivals(now);
        }
      },
      [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) batch[i]->deliver_arrivals(now);
      });
  team_.run_ordered(
      batch.size(),
      [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) batch[i]->send(now);
      },
      [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) batch[i]->flush_deferred(sched, now);
      });
}

}  // namespace ccsim
