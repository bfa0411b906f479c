// Queue occupancy over time (sim.queue_series = true, with sim.series_window):
// at the end of every series window, the mean flits queued per router port of
// each kind (input buffer plus output queue), in the results' time series
// (series.queue_flits); for routers chosen with sim.queue_routers, the flits
// of each port too (series.queue_flits.routers). A snapshot per window costs
// one pass over the ports.
#pragma once
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/router.h"
#include "core/types.h"

namespace ccsim {

class QueueSeries {
 public:
  // Windows of `window` cycles from cycle 0 to `end` (the series' bins);
  // `routers` are followed port by port.
  QueueSeries(Cycle window, Cycle end, std::vector<int> routers);
  // Called at the top of every simulated cycle; the loop may skip idle
  // cycles, in which nothing moves, so a late snapshot is the same.
  void observe(Cycle now, const std::vector<std::unique_ptr<Router>>& routers) {
    if (now >= next_ && taken_ < bins_) take(now, routers);
  }
  nlohmann::json json(const std::vector<std::unique_ptr<Router>>& routers) const;

 private:
  void take(Cycle now, const std::vector<std::unique_ptr<Router>>& routers);
  Cycle window_, next_;
  size_t bins_, taken_ = 0;
  std::vector<double> mean_[3];  // per PortKind, one value per window
  bool seen_[3] = {false, false, false};
  std::vector<int> routers_;
  std::vector<std::vector<std::vector<int>>> ports_;  // [chosen router][connected port]: flits per window
};

}  // namespace ccsim
