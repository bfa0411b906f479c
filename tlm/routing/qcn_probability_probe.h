// What routing "qcn_switch" reports of its minimal-routing probabilities (001 Fig. 12b): the
// mean probability of the ports ADV+1 congests (each group's global channel to the next group,
// and the local ports of the group's other switches towards that channel's switch, S_out), of
// all other transit ports, and of one probe port (towards S_out from a switch in the middle of
// group 0); with sim.series_window, the same per window plus the CNMs sent in it.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/types.h"
#include "routing/qcn_port_probabilities.h"
#include "topology/dragonfly.h"

namespace ccsim {

class QcnProbabilityProbe {
 public:
  // `tables`: one per router, in router order (they must outlive the probe).
  QcnProbabilityProbe(const Dragonfly& df, const std::vector<PortProbabilityTable>& tables, Cycle window);
  // Records the windows that ended by `now`; `cnms` is the total sent so far.
  void sample(Cycle now, int64_t cnms);
  void add_to(nlohmann::json& j) const;

 private:
  double mean_of(const std::vector<std::pair<int, int>>& ports) const;
  const std::vector<PortProbabilityTable>& tables_;
  Cycle window_, next_ = 0;
  int64_t cnms_at_sample_ = 0;
  std::vector<std::pair<int, int>> adv_global_, adv_local_, other_;  // (router, port)
  int probe_router_ = -1, probe_port_ = -1;
  std::vector<Cycle> t_;
  std::vector<double> global_, local_, others_, probe_;
  std::vector<int64_t> cnms_;
};

}  // namespace ccsim
