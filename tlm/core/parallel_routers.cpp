#include "core/parallel_routers.h"

#include <fmt/format.h>

#include "congestion/congestion_control.h"
#include "core/params.h"
#include "routing/routing.h"

namespace ccsim {

std::string ParallelRouters::obstacle(const Config& cfg, const RoutingFunction& routing, const CongestionControl& cc,
                                      bool tracing) {
  if (!routing.reads_only_its_router())
    return fmt::format("routing.algorithm \"{}\" reads state beyond its router", cfg.get_string("routing.algorithm"));
  if (cc.has_switch_hook() || cc.has_arrival_hook() || cc.has_allocation_hook() || cc.drops_waiting_packets() ||
      cc.sources_read_switches())
    return fmt::format("congestion.protocol \"{}\" acts in or reads the switches",
                       cfg.get_string("congestion.protocol"));
  if (cfg.get_string("routing.deadlock") == "recovery") return "routing.deadlock = \"recovery\" shares one token";
  if (cfg.get_string("router.occupancy") == "downstream")
    return "router.occupancy = \"downstream\" reads the next router's buffers";
  if (tracing) return "sim.trace records every router in one trace";
  return "";
}

ParallelRouters::ParallelRouters(int threads, const std::vector<std::unique_ptr<Router>>& routers)
    : team_(threads), split_(threads), deferred_(threads) {
  const size_t n = routers.size();
  for (size_t i = 0; i < n; ++i) {
    Router& r = *routers[i];
    r.batch = Component::Batch::Router;
    r.home = static_cast<uint16_t>(i * threads / n);  // contiguous: a group's local links stay on one core
    r.defer_shared_effects(&deferred_[r.home]);
  }
}

int64_t ParallelRouters::step(const std::vector<Router*>& batch, Scheduler& sched, Cycle now) {
  const size_t n = batch.size();
  split_.split(batch);
  wakes_of_.resize(n);
  for (DeferredEffects& d : deferred_) d.wakes.clear();
  team_.run(split_.homes.size(), [&](size_t begin, size_t end) {
    for (size_t t = begin; t < end; ++t)
      for (size_t i : split_.homes[t]) batch[i]->receive(now);
  });
  team_.run(split_.homes.size(), [&](size_t begin, size_t end) {
    for (size_t t = begin; t < end; ++t) {
      DeferredEffects& d = deferred_[t];
      for (size_t i : split_.homes[t]) {
        const size_t before = d.wakes.size();
        batch[i]->forward(now);
        wakes_of_[i] = {before, d.wakes.size() - before};
      }
    }
  });
  // The wake-ups in the batch's order.
  int64_t hops = 0;
  for (size_t i = 0; i < n; ++i) deferred_[split_.home_of[i]].hand_over(wakes_of_[i], sched);
  for (DeferredEffects& d : deferred_) {
    hops += d.hops;
    d.hops = 0;
  }
  return hops;
}

}  // namespace ccsim
