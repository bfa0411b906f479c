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

ParallelNics::ParallelNics(ThreadTeam& team, const std::vector<Nic*>& nics)
    : team_(team), homes_(static_cast<size_t>(team.size())) {
  for (Nic* n : nics) {
    n->batch = Component::Batch::Nic;
    n->home = n->router()->home;  // its packets and links are its router's
  }
}

void ParallelNics::step(const std::vector<Nic*>& batch, Scheduler& sched, Cycle now) {
  for (auto& h : homes_) h.clear();
  for (Nic* n : batch) homes_[n->home].push_back(n);
  team_.run(homes_.size(), [&](size_t begin, size_t end) {
    for (size_t t = begin; t < end; ++t)
      for (Nic* n : homes_[t]) {
        n->defer_shared_effects();
        n->take_arrivals(now);
      }
  });
  for (Nic* n : batch) n->deliver_arrivals(now);
  team_.run(homes_.size(), [&](size_t begin, size_t end) {
    for (size_t t = begin; t < end; ++t)
      for (Nic* n : homes_[t]) n->send(now);
  });
  for (Nic* n : batch) n->flush_deferred(sched, now);
}

}  // namespace ccsim
