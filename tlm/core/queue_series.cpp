#include "core/queue_series.h"

namespace ccsim {

QueueSeries::QueueSeries(Cycle window, Cycle end, std::vector<int> routers)
    : window_(window),
      next_(window),
      bins_(static_cast<size_t>((end + window - 1) / window)),
      routers_(std::move(routers)),
      ports_(routers_.size()) {}

void QueueSeries::take(Cycle now, const std::vector<std::unique_ptr<Router>>& routers) {
  double flits[3] = {0, 0, 0}, ports[3] = {0, 0, 0};
  for (auto& r : routers)
    for (int p = 0; p < r->radix(); ++p) {
      if (r->input_depth(p) == 0) continue;  // unconnected
      const int k = static_cast<int>(r->port_kind(p));
      flits[k] += r->input_queue_flits(p) + r->output_queue_flits(p);
      ports[k] += 1;
    }
  std::vector<std::vector<int>> chosen(routers_.size());
  for (size_t i = 0; i < routers_.size(); ++i) {
    const Router& r = *routers[routers_[i]];
    for (int p = 0; p < r.radix(); ++p)
      if (r.input_depth(p) > 0) chosen[i].push_back(r.input_queue_flits(p) + r.output_queue_flits(p));
  }
  // Windows the loop skipped (nothing moved) share this snapshot.
  for (; next_ <= now && taken_ < bins_; next_ += window_, ++taken_) {
    for (int k = 0; k < 3; ++k) {
      mean_[k].push_back(ports[k] > 0 ? flits[k] / ports[k] : 0.0);
      seen_[k] = seen_[k] || ports[k] > 0;
    }
    for (size_t i = 0; i < routers_.size(); ++i) {
      ports_[i].resize(chosen[i].size());
      for (size_t p = 0; p < chosen[i].size(); ++p) ports_[i][p].push_back(chosen[i][p]);
    }
  }
}

nlohmann::json QueueSeries::json(const std::vector<std::unique_ptr<Router>>& routers) const {
  // The run ended early (a deadlock): the last state fills the missing windows.
  auto filled = [&](auto v) {
    v.resize(bins_, v.empty() ? 0 : v.back());
    return v;
  };
  nlohmann::json j;
  for (PortKind k : {PortKind::Terminal, PortKind::Local, PortKind::Global})
    if (seen_[static_cast<int>(k)]) j[to_string(k)] = filled(mean_[static_cast<int>(k)]);
  for (size_t i = 0; i < routers_.size(); ++i) {
    const Router& r = *routers[routers_[i]];
    nlohmann::json ports = nlohmann::json::array();
    size_t connected = 0;
    for (int p = 0; p < r.radix(); ++p) {
      if (r.input_depth(p) == 0) continue;
      const std::vector<int> none;
      ports.push_back({{"port", p},
                       {"kind", to_string(r.port_kind(p))},
                       {"flits", filled(connected < ports_[i].size() ? ports_[i][connected] : none)}});
      ++connected;
    }
    j["routers"].push_back({{"router", routers_[i]}, {"ports", ports}});
  }
  return j;
}

}  // namespace ccsim
