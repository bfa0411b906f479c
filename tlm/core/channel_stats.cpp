#include "core/channel_stats.h"

#include <algorithm>
#include <numeric>

namespace ccsim {

ChannelStats::ChannelStats(const Topology& topo, Cycle warmup, Cycle measure)
    : topo_(topo), start_(warmup), end_(warmup + measure) {}

void ChannelStats::add(const Link* link, int router, int port, int node) {
  channels_.push_back({link, router, port, node});
}

void ChannelStats::take(std::vector<int64_t>& counts, bool& done) {
  counts.clear();
  for (const Channel& c : channels_) counts.push_back(c.link->flits_sent());
  done = true;
}

nlohmann::json ChannelStats::json() {
  if (!opened_) take(start_counts_, opened_);
  const bool cut_short = !closed_;  // the run ended before the window did (a deadlock)
  if (!closed_) take(end_counts_, closed_);
  const double cycles = static_cast<double>(end_ - start_);
  std::vector<double> use(channels_.size());
  for (size_t i = 0; i < channels_.size(); ++i)
    use[i] = static_cast<double>(end_counts_[i] - start_counts_[i]) / cycles;

  nlohmann::json routers = nlohmann::json::array(), injection = nlohmann::json::array();
  nlohmann::json peers = nlohmann::json::array();  // what each port leads to: a router, or -1 - node
  for (int r = 0; r < topo_.num_routers(); ++r) {
    routers.push_back(std::vector<nlohmann::json>(topo_.radix(r)));
    peers.push_back(std::vector<nlohmann::json>(topo_.radix(r)));
    for (int o = 0; o < topo_.radix(r); ++o)
      if (const PortPeer pp = topo_.peer(r, o); pp.id >= 0) peers[r][o] = pp.is_node ? -1 - pp.id : pp.id;
  }
  for (int n = 0; n < topo_.num_nodes(); ++n) injection.push_back(nullptr);
  struct Sum {
    double total = 0, max = 0;
    int count = 0;
  };
  Sum by_kind[3], inject;
  for (size_t i = 0; i < channels_.size(); ++i) {
    const Channel& c = channels_[i];
    Sum& s = c.router < 0 ? inject : by_kind[static_cast<int>(c.link->kind())];
    s.total += use[i];
    s.max = std::max(s.max, use[i]);
    ++s.count;
    if (c.router < 0)
      injection[c.node] = use[i];
    else
      routers[c.router][c.port] = use[i];
  }
  auto summary = [](const Sum& s) {
    return nlohmann::json{{"channels", s.count}, {"mean", s.count ? s.total / s.count : 0.0}, {"max", s.max}};
  };
  nlohmann::json kinds;
  for (PortKind k : {PortKind::Terminal, PortKind::Local, PortKind::Global})
    if (by_kind[static_cast<int>(k)].count) kinds[to_string(k)] = summary(by_kind[static_cast<int>(k)]);
  kinds["injection"] = summary(inject);

  // The ten busiest router output ports, busiest first (ties: lower router, then port).
  std::vector<size_t> order;
  for (size_t i = 0; i < channels_.size(); ++i)
    if (channels_[i].router >= 0) order.push_back(i);
  const size_t top = std::min<size_t>(10, order.size());
  std::partial_sort(
      order.begin(), order.begin() + static_cast<std::ptrdiff_t>(top), order.end(), [&](size_t a, size_t b) {
        if (use[a] != use[b]) return use[a] > use[b];
        return std::tie(channels_[a].router, channels_[a].port) < std::tie(channels_[b].router, channels_[b].port);
      });
  nlohmann::json busiest = nlohmann::json::array();
  for (size_t k = 0; k < top; ++k) {
    const Channel& c = channels_[order[k]];
    const PortPeer pp = topo_.peer(c.router, c.port);
    busiest.push_back({{"router", c.router},
                       {"port", c.port},
                       {"kind", to_string(c.link->kind())},
                       {pp.is_node ? "to_node" : "to_router", pp.id},
                       {"utilization", use[order[k]]}});
  }
  nlohmann::json j = {{"window_cycles", end_ - start_},
                      {"by_kind", kinds},
                      {"busiest", busiest},
                      {"routers", routers},
                      {"peers", peers},
                      {"injection", injection}};
  if (cut_short) j["cut_short"] = true;
  return j;
}

}  // namespace ccsim
