#include "core/queue_series.h"

namespace ccsim {

QueueSeries::QueueSeries(Cycle window, Cycle end)
    : window_(window), next_(window), bins_(static_cast<size_t>((end + window - 1) / window)) {}

void QueueSeries::take(Cycle now, const std::vector<std::unique_ptr<Router>>& routers) {
  double flits[3] = {0, 0, 0}, ports[3] = {0, 0, 0};
  for (auto& r : routers)
    for (int p = 0; p < r->radix(); ++p) {
      if (r->input_depth(p) == 0) continue;  // unconnected
      const int k = static_cast<int>(r->port_kind(p));
      flits[k] += r->input_queue_flits(p) + r->output_queue_flits(p);
      ports[k] += 1;
    }
  // Windows the loop skipped (nothing moved) share this snapshot.
  for (; next_ <= now && taken_ < bins_; next_ += window_, ++taken_)
    for (int k = 0; k < 3; ++k) {
      mean_[k].push_back(ports[k] > 0 ? flits[k] / ports[k] : 0.0);
      seen_[k] = seen_[k] || ports[k] > 0;
    }
}

nlohmann::json QueueSeries::json() const {
  nlohmann::json j;
  for (PortKind k : {PortKind::Terminal, PortKind::Local, PortKind::Global})
    if (seen_[static_cast<int>(k)]) {
      std::vector<double> v = mean_[static_cast<int>(k)];
      v.resize(bins_, v.empty() ? 0.0 : v.back());  // the run ended early (a deadlock): the last state
      j[to_string(k)] = v;
    }
  return j;
}

}  // namespace ccsim
