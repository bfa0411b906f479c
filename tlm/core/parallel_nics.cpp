#include "core/parallel_nics.h"

#include <fmt/format.h>

#include "congestion/congestion_control.h"
#include "core/params.h"
#include "core/sim_error.h"

namespace ccsim {

std::string ParallelNics::obstacle(const Config& cfg, const CongestionControl& cc, bool motifs) {
  if (cc.acts_at_injection())
    return fmt::format("congestion.protocol \"{}\" acts as packets are injected",
                       cfg.get_string("congestion.protocol"));
  return motifs ? "traffic.motif sends on deliveries" : "";
}

ParallelNics::ParallelNics(ThreadTeam& team, const std::vector<Nic*>& nics)
    : team_(team), split_(static_cast<size_t>(team.size())), deferred_(split_.homes.size()) {
  for (Nic* n : nics) {
    n->batch = Component::Batch::Nic;
    n->home = n->router()->home;  // its packets and links are its router's
  }
}

int64_t ParallelNics::step(const std::vector<Nic*>& batch, Scheduler& sched, Cycle now) {
  const size_t n = batch.size();
  split_.split(batch);
  delivery_wakes_.resize(n);
  send_wakes_.resize(n);
  for (DeferredEffects& d : deferred_) d.wakes.clear();
  team_.run(split_.homes.size(), [&](size_t begin, size_t end) {
    for (size_t t = begin; t < end; ++t)
      for (size_t i : split_.homes[t]) {
        batch[i]->defer_shared_effects(&deferred_[t]);
        batch[i]->take_arrivals(now);
      }
  });
  size_t delivery_wake_count = 0;
  for (size_t i = 0; i < n; ++i) {
    const auto& wakes = deferred_[split_.home_of[i]].wakes;
    const size_t before = wakes.size();
    batch[i]->deliver_arrivals(now);
    delivery_wakes_[i] = {before, wakes.size() - before};
    delivery_wake_count += wakes.size() - before;
  }
  // A delivery that woke another NIC of the batch would have left its wake-up outside every range.
  size_t listed = 0;
  for (const DeferredEffects& d : deferred_) listed += d.wakes.size();
  if (listed != delivery_wake_count)
    throw SimError(
        "a delivery woke another NIC while NICs step in parallel: that protocol must keep them on one "
        "thread (CongestionControl::acts_at_injection)");
  team_.run(split_.homes.size(), [&](size_t begin, size_t end) {
    for (size_t t = begin; t < end; ++t)
      for (size_t i : split_.homes[t]) {
        const size_t before = deferred_[t].wakes.size();
        batch[i]->send(now);
        batch[i]->wake_if_busy(now);
        batch[i]->stop_deferring();
        send_wakes_[i] = {before, deferred_[t].wakes.size() - before};
      }
  });
  // The wake-ups in the batch's order, each NIC's as its step() makes them: deliveries' first.
  for (size_t i = 0; i < n; ++i) {
    const DeferredEffects& d = deferred_[split_.home_of[i]];
    d.hand_over(delivery_wakes_[i], sched);
    d.hand_over(send_wakes_[i], sched);
  }
  int64_t flits = 0;
  for (DeferredEffects& d : deferred_) {
    flits += d.hops;
    d.hops = 0;
  }
  return flits;
}

}  // namespace ccsim
