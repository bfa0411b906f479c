#include "congestion/selftune.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "congestion/protocol_context.h"
#include "topology/torus.h"
#include "registry.h"

namespace ccsim {

SelfTuneParams SelfTuneParams::from_config(const Config& c) {
  SelfTuneParams p;
  p.tune = c.get_string("congestion.selftune_mode") == "tune";
  p.static_threshold = c.get_int("congestion.selftune_threshold");
  p.linear = c.get_string("congestion.selftune_estimator") == "linear";
  p.tune_period = c.get_int("congestion.selftune_tune_period");
  p.initial = c.get_float("congestion.selftune_initial");
  p.increment = c.get_float("congestion.selftune_increment");
  p.decrement = c.get_float("congestion.selftune_decrement");
  p.drop_fraction = 1.0 - c.get_float("congestion.selftune_drop");
  p.significant_fraction = 1.0 - c.get_float("congestion.selftune_max_drop");
  p.resets = static_cast<int>(c.get_int("congestion.selftune_resets"));
  p.local_max = c.get_bool("congestion.selftune_local_max");
  p.throttled_any_cycle = c.get_string("congestion.selftune_throttling") == "period";
  p.sideband.hop_delay = static_cast<int>(c.get_int("congestion.selftune_hop_delay"));
  p.sideband.count_bits = static_cast<int>(c.get_int("congestion.selftune_count_bits"));
  p.sideband.throughput_bits = static_cast<int>(c.get_int("congestion.selftune_throughput_bits"));
  p.sideband.width = static_cast<int>(c.get_int("congestion.selftune_sideband_width"));
  return p;
}

void SelfTune::attach(ProtocolContext& net) {
  CongestionControl::attach(net);
  const auto* torus = dynamic_cast<const Torus*>(&net.topology());
  if (!torus || !torus->wrap())
    throw ConfigError("congestion.protocol",
                      "selftune needs topology.kind = \"torus\" (its side-band gathers on rings)");
  gather_ = std::make_unique<SidebandGather>(*torus, p_.sideband);
  g_ = gather_->duration();
  period_ = (p_.tune_period + g_ - 1) / g_ * g_;
  // All VC buffers of the network's router-to-router input ports (004: 256 * 4 * 3 = 3072).
  const Topology& t = net.topology();
  for (int r = 0; r < t.num_routers(); ++r)
    for (int o = 0; o < t.radix(r); ++o) {
      const PortPeer pp = t.peer(r, o);
      if (pp.id >= 0 && !pp.is_node) total_ += net.settings().vcs_per_class;
    }
  // A full-buffer sum that saturates below the total would make high thresholds unreachable.
  if (total_ > (int64_t{1} << p_.sideband.count_bits) - 1)
    throw ConfigError("congestion.selftune_count_bits",
                      fmt::format("{} bits hold at most {}, but this network has {} VC buffers: needs at least {}",
                                  p_.sideband.count_bits, (int64_t{1} << p_.sideband.count_bits) - 1, total_,
                                  64 - __builtin_clzll(static_cast<uint64_t>(total_))));
  TunerParams tp;
  tp.total = total_;
  tp.initial = static_cast<int64_t>(std::floor(p_.initial * static_cast<double>(total_)));
  tp.increment = static_cast<int64_t>(std::floor(p_.increment * static_cast<double>(total_)));
  tp.decrement = static_cast<int64_t>(std::floor(p_.decrement * static_cast<double>(total_)));
  tp.drop_fraction = p_.drop_fraction;
  tp.significant_fraction = p_.significant_fraction;
  tp.resets = p_.resets;
  tp.local_max = p_.local_max;
  tuner_ = std::make_unique<HillClimbTuner>(tp);
  threshold_ = p_.tune ? tuner_->threshold() : p_.static_threshold;
  delivered_.assign(t.num_routers(), 0);
  local_.resize(t.num_routers());
  timer_.cc = this;
  net.wake(&timer_, net.now());
}

int64_t extrapolate(int64_t last, int64_t previous, Cycle since, Cycle g, int64_t total) {
  return std::clamp<int64_t>(last + (last - previous) * since / g, 0, total);
}

int64_t SelfTune::estimate(Cycle t) const {
  if (snapshots_ == 0) return 0;
  if (!p_.linear || snapshots_ < 2) return std::clamp<int64_t>(cur_, 0, total_);
  return extrapolate(cur_, prev_, t - cur_tau_, g_, total_);
}

bool SelfTune::may_inject(NicView&, Packet&, Cycle now) { return !throttling(now); }

void SelfTune::on_eject(const Packet& p, Cycle) { ++delivered_[net_->topology().node_router(p.dst)]; }

void SelfTune::sample_and_start(Cycle now) {
  const int R = net_->num_routers();
  for (int r = 0; r < R; ++r) {
    SwitchView& rt = net_->switch_at(r);
    uint32_t full = 0;
    for (int o = 0; o < rt.radix(); ++o) {
      if (rt.port_kind(o) == PortKind::Terminal || rt.input_depth(o) == 0) continue;
      for (int v = 0; v < rt.num_vcs(); ++v) full += rt.input_flits(o, v) >= rt.input_depth(o);
    }
    local_[r] = {full, delivered_[r]};
    delivered_[r] = 0;
  }
  gather_->start(local_, now);
}

void SelfTune::on_snapshot(Cycle now) {
  ++gathers_;
  const SidebandWord& w = gather_->result(0);
  prev_ = cur_;
  cur_ = w.full;
  cur_tau_ = gather_->started();
  ++snapshots_;
  period_tp_ += w.delivered;
  if (now % period_ == 0) {
    HillClimbTuner::Action a = HillClimbTuner::Action::None;
    if (p_.tune) {
      a = tuner_->tune(period_tp_, cur_, p_.throttled_any_cycle ? period_throttled_ : throttling(now));
      threshold_ = tuner_->threshold();
    }
    tr_cycle_.push_back(now);
    tr_threshold_.push_back(threshold_);
    tr_full_.push_back(cur_);
    tr_tp_.push_back(period_tp_);
    tr_action_.push_back(static_cast<int>(a));
    period_tp_ = 0;
    period_throttled_ = false;
  }
  // Whether sources throttle in some cycle of [now, now + g): the estimate is
  // linear there, so its extremes are at the ends; count the cycles too.
  int64_t cycles = 0;
  for (Cycle t = now; t < now + g_; ++t) cycles += throttling(t);
  throttled_cycles_ += cycles;
  if (cycles > 0) period_throttled_ = true;
}

void SelfTune::on_timer(Cycle now) {
  if (gather_->advance(now)) on_snapshot(now);
  if (!gather_->busy()) sample_and_start(now);
  net_->wake(&timer_, now + gather_->hop_cycles());
}

nlohmann::json SelfTune::stats() const {
  nlohmann::json j;
  j["mode"] = p_.tune ? "tune" : "static";
  j["gather_cycles"] = g_;
  j["hop_cycles"] = gather_->hop_cycles();
  j["tune_period"] = period_;
  j["total_buffers"] = total_;
  j["gathers"] = gathers_;
  j["sideband_words"] = gather_->words_sent();
  j["throttled_cycles"] = throttled_cycles_;
  j["threshold"] = threshold_;
  j["increments"] = tuner_->increments;
  j["decrements"] = tuner_->decrements;
  j["max_resets"] = tuner_->max_resets;
  j["max_forgotten"] = tuner_->max_forgotten;
  // The threshold trace: one entry per tuning period (cycle at its end, the
  // threshold from then on, the last full-buffer snapshot, flits delivered in
  // the period, the tuner's action: 0 none, 1 increment, 2 decrement, 3 reset
  // to min(T_max, N_max)).
  j["trace"] = {{"cycle", tr_cycle_},
                {"threshold", tr_threshold_},
                {"full_buffers", tr_full_},
                {"delivered_flits", tr_tp_},
                {"action", tr_action_}};
  return j;
}

ProtocolEntry selftune_protocol_entry() {
  return ProtocolEntry{
      "selftune",
      "Self-tuned source throttling (004): a side-band gathers the global count of full VC buffers "
      "and delivered flits every g = (k/2)*h*n cycles; nodes stop injecting while the extrapolated count exceeds "
      "a threshold, tuned by hill climbing on throughput (torus only)",
      {string_param("congestion.selftune_mode", "tune",
                    "tune: hill-climbing threshold (004 4); static: fixed "
                    "selftune_threshold (004 Fig. 5)",
                    {"tune", "static"}),
       int_param("congestion.selftune_threshold", 250,
                 "static mode: the threshold in full VC buffers (004 Fig. 5: "
                 "50 and 250)",
                 0),
       string_param("congestion.selftune_estimator", "linear",
                    "congestion estimate between snapshots: linear "
                    "extrapolation from the last two (004) or the last one",
                    {"linear", "last"}),
       int_param("congestion.selftune_hop_delay", 2, "side-band neighbour-to-neighbour delay h in cycles (004)", 1,
                 1 << 20),
       int_param("congestion.selftune_sideband_width", 25,
                 "side-band channel width in bits; narrower than "
                 "count_bits + throughput_bits sends a word in several beats, adding beats - 1 cycles per hop "
                 "(004: 25, or 9 in its report; the beat timing is ours)",
                 1, 64),
       int_param("congestion.selftune_count_bits", 12,
                 "full-buffer field width; must hold the network's VC buffer count (004: 12 for 3,072)", 1, 31),
       int_param("congestion.selftune_throughput_bits", 13, "delivered-flits field width; sums saturate (004: 13)", 1,
                 31),
       int_param("congestion.selftune_tune_period", 96,
                 "tuning period in cycles, rounded up to a multiple of the "
                 "gather duration (004: 96)",
                 1),
       float_param("congestion.selftune_initial", 0.01, "first threshold, fraction of all VC buffers (004: 1%)", 0, 1),
       float_param("congestion.selftune_increment", 0.01,
                   "threshold increment, fraction of all VC buffers (004: "
                   "1%)",
                   0, 1),
       float_param("congestion.selftune_decrement", 0.04,
                   "threshold decrement, fraction of all VC buffers (004: "
                   "4%)",
                   0, 1),
       float_param("congestion.selftune_drop", 0.25,
                   "a period's throughput below (1 - this) of the previous "
                   "period's is a drop (004: 25%)",
                   0, 1),
       string_param("congestion.selftune_throttling", "period",
                    "\"currently throttling?\" of Table 1: the estimate "
                    "exceeded the threshold in some cycle of the tuning period (spec default) or at the decision "
                    "(spec option)",
                    {"period", "decision"}),
       bool_param("congestion.selftune_local_max", true,
                  "local-maximum avoidance (004 4.2): reset the threshold to "
                  "min(T_max, N_max) on a significant drop below the best throughput"),
       float_param("congestion.selftune_max_drop", 0.25,
                   "a period's throughput below (1 - this) of the best is "
                   "significant (ours: 004 says \"significantly\")",
                   0, 1),
       int_param("congestion.selftune_resets", 5,
                 "consecutive resets after which the best throughput is "
                 "forgotten (004: r = 5)",
                 1, 1 << 20)},
      [](const Config& c) { return std::make_unique<SelfTune>(SelfTuneParams::from_config(c)); }};
}

}  // namespace ccsim
