#include "core/run_stats.h"

#include <algorithm>

namespace ccsim {

RunStats::RunStats(int nodes, Cycle warmup, Cycle measure, Cycle series_window, double clock_ghz, bool by_creation)
    : nodes_(nodes),
      warmup_(warmup),
      measure_(measure),
      window_(series_window),
      by_creation_(by_creation),
      clock_ghz_(clock_ghz),
      node_flits_(nodes, 0) {
  if (window_ > 0) bins_ = static_cast<size_t>((warmup + measure + window_ - 1) / window_);
  series_.resize(bins_);
}

int RunStats::add_class(const std::string& name, double offered_load, const std::vector<int>& sources) {
  ClassData c;
  c.name = name;
  c.offered_load = offered_load;
  c.sources = sources;
  c.stats.sources = static_cast<int64_t>(sources.size());
  c.node_flits.assign(nodes_, 0);
  c.series.resize(bins_);
  classes_.push_back(std::move(c));
  std::vector<int> merged;
  std::set_union(all_sources_.begin(), all_sources_.end(), sources.begin(), sources.end(), std::back_inserter(merged));
  all_sources_ = merged;
  total_.sources = static_cast<int64_t>(all_sources_.size());
  return static_cast<int>(classes_.size()) - 1;
}

void RunStats::packet_delivered(const Packet& p, Cycle now) {
  ClassData& c = classes_[p.traffic_class];
  if (p.measured) {
    for (PacketStats* s : {&total_, &c.stats}) {
      ++s->packets;
      s->flits += p.size;
      s->latency_sum += static_cast<double>(now - p.created);
      s->network_latency_sum += static_cast<double>(now - p.injected);
      s->hops_sum += p.hops;
      s->misrouted += p.misrouted;
      s->latency.add(now - p.created);
    }
  }
  if (in_window(now)) {
    for (PacketStats* s : {&total_, &c.stats}) {
      ++s->window_packets_delivered;
      s->window_network_latency_sum += static_cast<double>(now - p.injected);
    }
  }
  if (window_ == 0) return;
  const size_t delivered = static_cast<size_t>(now / window_);  // throughput's window
  if (delivered < bins_) {
    series_[delivered].flits += p.size;
    c.series[delivered].flits += p.size;
  }
  if (const size_t bin = by_creation_ ? static_cast<size_t>(p.created / window_) : delivered; bin < bins_) {
    for (Bin* b : {&series_[bin], &c.series[bin]}) {
      ++b->packets;
      b->misrouted += p.misrouted;
      b->latency_sum += static_cast<double>(now - p.created);
    }
  }
}

void RunStats::message_delivered(int cls, Cycle latency) {
  for (PacketStats* s : {&total_, &classes_[cls].stats}) {
    ++s->messages;
    s->message_latency_sum += static_cast<double>(latency);
  }
}

nlohmann::json RunStats::stats_json(const PacketStats& s, double offered, double nodes,
                                    const std::vector<int64_t>& node_flits, const std::vector<int>& sources) const {
  nlohmann::json j;
  const double pk = static_cast<double>(std::max<int64_t>(1, s.packets));
  const double src_nodes = static_cast<double>(std::max<int64_t>(1, s.sources));
  const double cycles = static_cast<double>(measure_);
  j["offered_load"] = offered;
  j["generated_load"] = static_cast<double>(s.window_flits_generated) / (src_nodes * cycles);
  if (refusals_) j["refused_load"] = static_cast<double>(s.window_flits_refused) / (src_nodes * cycles);
  j["accepted_throughput"] = static_cast<double>(s.window_flits_accepted) / (nodes * cycles);
  j["accepted_flits"] = s.window_flits_accepted;
  j["avg_packet_latency"] = s.latency_sum / pk;
  j["avg_network_latency"] = s.network_latency_sum / pk;
  j["avg_network_latency_delivered"] =
      s.window_network_latency_sum / static_cast<double>(std::max<int64_t>(1, s.window_packets_delivered));
  j["avg_message_latency"] = s.message_latency_sum / static_cast<double>(std::max<int64_t>(1, s.messages));
  j["latency_p50"] = s.latency.quantile(0.5);
  j["latency_p99"] = s.latency.quantile(0.99);
  j["avg_hops"] = s.hops_sum / pk;
  j["misrouted_fraction"] = static_cast<double>(s.misrouted) / pk;
  j["packets_measured"] = s.packets;
  j["messages_measured"] = s.messages;
  j["sources"] = s.sources;
  // Fairness: accepted throughput of every source node (null for the others),
  // min and max over the sources.
  nlohmann::json per_node = nlohmann::json::array();
  for (size_t n = 0; n < node_flits.size(); ++n) per_node.push_back(nullptr);
  double mn = sources.empty() ? 0 : 1e300, mx = 0;
  for (int n : sources) {
    const double t = static_cast<double>(node_flits[n]) / cycles;
    per_node[n] = t;
    mn = std::min(mn, t);
    mx = std::max(mx, t);
  }
  j["node_accepted_min"] = mn;
  j["node_accepted_max"] = mx;
  j["node_accepted"] = per_node;
  return j;
}

void RunStats::end_window(Cycle at) {
  measure_ = at - warmup_;
  if (window_ == 0) return;
  // The time series stops with the window.
  bins_ = std::min(bins_, static_cast<size_t>((at + window_ - 1) / window_));
  series_.resize(bins_);
  for (auto& c : classes_) c.series.resize(bins_);
}

nlohmann::json RunStats::series_json(const std::vector<Bin>& bins, double nodes) const {
  nlohmann::json j;
  std::vector<double> lat, thr, mis;
  std::vector<int64_t> packets;
  for (const Bin& b : bins) {
    const double pk = static_cast<double>(std::max<int64_t>(1, b.packets));
    lat.push_back(b.packets ? b.latency_sum / pk : 0.0);
    thr.push_back(static_cast<double>(b.flits) / (nodes * static_cast<double>(window_)));
    mis.push_back(static_cast<double>(b.misrouted) / pk);
    packets.push_back(b.packets);
  }
  j["avg_packet_latency"] = lat;
  j["accepted_throughput"] = thr;
  j["misrouted_fraction"] = mis;
  j["packets"] = packets;
  return j;
}

nlohmann::json RunStats::json(double offered_load) const {
  nlohmann::json j = stats_json(total_, offered_load, nodes_, node_flits_, all_sources_);
  // Share of the ejection channels' bandwidth by packet kind (003 Fig. 8).
  for (size_t k = 0; k < ejected_by_kind_.size(); ++k)
    j["ejection"][packet_kind_name(static_cast<PacketKind>(k))] =
        static_cast<double>(ejected_by_kind_[k]) / (static_cast<double>(nodes_) * static_cast<double>(measure_));
  for (const ClassData& c : classes_) {
    const double src = static_cast<double>(std::max<size_t>(1, c.sources.size()));
    j["classes"][c.name] = stats_json(c.stats, c.offered_load, src, c.node_flits, c.sources);
  }
  if (window_ > 0) {
    nlohmann::json s;
    std::vector<int64_t> t;
    std::vector<double> t_us;
    for (size_t b = 0; b < bins_; ++b) {
      t.push_back(static_cast<int64_t>(b) * window_);
      t_us.push_back(static_cast<double>(t.back()) / (clock_ghz_ * 1000.0));
    }
    s["window_cycles"] = window_;
    s["measure_start"] = warmup_;
    s["t"] = t;
    s["t_us"] = t_us;
    s["overall"] = series_json(series_, nodes_);
    for (const ClassData& c : classes_)
      s["classes"][c.name] = series_json(c.series, static_cast<double>(std::max<size_t>(1, c.sources.size())));
    j["series"] = s;
  }
  return j;
}

}  // namespace ccsim
