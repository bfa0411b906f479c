#include "congestion/cbcm.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "congestion/protocol_context.h"
#include "core/sim_error.h"
#include "registry.h"

namespace ccsim {

CbcmParams CbcmParams::from_config(const Config& c) {
  CbcmParams p;
  const std::string& variant = c.get_string("congestion.cbcm_variant");
  p.variant = variant == "shared" ? Variant::Shared : variant == "ideal" ? Variant::Ideal : Variant::Dedicated;
  p.throttle = c.get_bool("congestion.cbcm_throttle");
  p.shared_rate = c.get_float("congestion.cbcm_shared_rate");
  p.table_entries = static_cast<int>(c.get_int("congestion.cbcm_table_entries"));
  p.src_epoch = c.get_int("congestion.cbcm_src_epoch");
  p.update_restarts_epoch = c.get_string("congestion.cbcm_epoch_restart") == "every_throttle";
  p.early = c.get_string("congestion.cbcm_detection") == "early";
  p.contention.per_destination = p.early;
  p.router_epoch = c.get_int("congestion.cbcm_router_epoch");
  p.contention.weighted = c.get_string("congestion.cbcm_degree") == "weighted";
  p.contention.va_only = c.get_string("congestion.cbcm_requests") == "va_only";
  p.contention.ignored_classes = 1u << Cbcm::kControlClass;
  if (!c.get_bool("congestion.cbcm_count_hotspot_class")) p.contention.ignored_classes |= 1u << Cbcm::kHotspotClass;
  p.contention.num_samples = static_cast<int>(c.get_int("congestion.cbcm_samples"));
  p.contention.bound_sample_interval = static_cast<int>(c.get_int("congestion.cbcm_bound_interval"));
  p.contention.num_bound_samples = static_cast<int>(c.get_int("congestion.cbcm_bound_samples"));
  p.detector.epoch = c.get_int("congestion.cbcm_dest_epoch");
  p.detector.min_dt = static_cast<int>(c.get_int("congestion.cbcm_min_dt"));
  p.detector.epsilon = c.get_float("congestion.cbcm_epsilon");
  p.detector.exit_on_unmarked = c.get_string("congestion.cbcm_hotspot_exit") == "unmarked_epoch";
  p.true_hotspot_load = c.get_float("congestion.cbcm_true_hotspot_load");

  if (p.detector.epsilon <= 0)
    throw ConfigError("congestion.cbcm_epsilon", "must be above 0 (the control packets' share of bandwidth)");
  if (p.early && p.variant == Variant::Ideal)
    throw ConfigError("congestion.cbcm_detection",
                      "must be destination with cbcm_variant = ideal (nothing is detected)");
  if (p.variant == Variant::Ideal) {
    const std::string& name = c.get_string("congestion.cbcm_ideal_class");
    std::string known;
    const size_t n = c.classes.empty() ? 1 : c.classes.size();
    for (size_t i = 0; i < n; ++i) {
      const std::string& ci = (c.classes.empty() ? c : c.classes[i]).get_string("traffic.name");
      if (ci == name) p.ideal_class = static_cast<int>(i);
      known += (known.empty() ? "" : ", ") + ci;
    }
    if (p.ideal_class < 0)
      throw ConfigError("congestion.cbcm_ideal_class",
                        fmt::format("no traffic class named \"{}\" (classes: {})", name, known));
  }
  return p;
}

std::vector<VcClass> Cbcm::vc_classes() const {
  switch (p_.variant) {
    case CbcmParams::Variant::Dedicated:
      return {{"data", 1}, {"control", 2}, {"hotspot", 0}};
    case CbcmParams::Variant::Shared:
      return {{"data", 0}, {"control", 2}};
    case CbcmParams::Variant::Ideal:
      return {{"data", 0}, {"hotspot", 0}};  // equal priority (spec A.7.2)
  }
  return {};
}

void Cbcm::attach(ProtocolContext& net) {
  CongestionControl::attach(net);
  p_.vcs_per_class = net.settings().vcs_per_class;
  p_.cut_through = net.settings().cut_through;
  p_.window_start = net.settings().warmup;
  p_.window_cycles = net.settings().measure;
  // Throttled packets must go minimally (000 IV): the routing algorithm says
  // whether it honours Packet::minimal_only.
  if (!net.routing().honours_minimal_only()) {
    const std::string& topology = net.config().get_string("topology.kind");
    std::string able;
    for (auto& e : routings()) {
      if (e.topology != topology) continue;
      try {
        if (e.make(net.config(), net.topology())->honours_minimal_only()) able += (able.empty() ? "" : ", ") + e.name;
      } catch (const ConfigError&) {  // not buildable with this config: not a choice
      }
    }
    throw ConfigError("routing.algorithm",
                      fmt::format("\"{}\" does not route CBCM's throttled packets minimally; with protocol \"cbcm\" "
                                  "on a {} use one that does: {}",
                                  net.config().get_string("routing.algorithm"), topology, able));
  }
  const int n = net.num_nodes();
  if (detecting()) contention_.build(net, p_.contention);
  for (int r = 0; r < net.num_routers() && p_.contention.weighted; ++r)
    if (ContentionDegreeMonitor::weight_steps(net.topology().radix(r)) < 1)
      throw ConfigError("congestion.cbcm_degree", "weighted needs routers of radix <= 255");
  detectors_.assign(n, HotspotDetector(n, p_.detector));
  blocks::TokenThrottler::Config tc;
  tc.num_entries = p_.table_entries;
  tc.dest_width = 32;  // wide enough for any network: the RTL sizes are not modelled here
  tc.dt_width = 24;
  tc.size_width = 16;
  tc.token_width = 48;
  tc.src_epoch = static_cast<int>(p_.src_epoch);
  tc.keep_epoch_on_update = !p_.update_restarts_epoch;
  if (p_.variant == CbcmParams::Variant::Shared) {
    tc.token_increment = static_cast<int>(std::lround(p_.shared_rate * 1000));
    tc.cost_scale = 1000;
  }
  sources_.clear();
  sources_.resize(n);
  for (int i = 0; i < n; ++i)
    sources_[i].throttler = hw::make_token_throttler(tc, net.hardware(), fmt::format("nic:{}", i));
  timers_.assign(n, NodeTimer{});
  for (int i = 0; i < n; ++i) {
    timers_[i].cc = this;
    timers_[i].node = i;
  }
  words_ = (n + 63) / 64;
  flow_seen_.assign(static_cast<size_t>(n) * words_, 0);
  offered_.assign(n, 0);
  throttled_cycles_.assign(n, 0);
  if (p_.early) {
    const int routers = net.num_routers();
    node_router_.resize(n);
    router_node_.assign(routers, -1);
    for (int i = n - 1; i >= 0; --i) {
      node_router_[i] = net.topology().node_router(i);
      router_node_[node_router_[i]] = i;  // the lowest-numbered node of the router
    }
    for (int r = 0; r < routers; ++r)
      if (router_node_[r] < 0) throw ConfigError("congestion.cbcm_detection", "early needs a node on every router");
    DetectorParams rp = p_.detector;
    if (p_.router_epoch > 0) rp.epoch = p_.router_epoch;
    router_detectors_.assign(static_cast<size_t>(routers) * n, HotspotDetector(n, rp));
    router_pending_.assign(routers, {});
    router_timers_.assign(routers, RouterTimer{});
    for (int r = 0; r < routers; ++r) {
      router_timers_[r].cc = this;
      router_timers_[r].router = r;
    }
  }
}

void Cbcm::router_dispatch(int router, int dst, Cycle now) {
  HotspotDetector& d = router_detector(router, dst);
  const int dt = d.poll(now, batch_);
  for (int src : batch_) {
    // From the hotspot's point of view: src names the throttled destination.
    Packet* t = net_->new_control(kThrottlePacket, dst, src, kControlClass, no_ref_, now);
    t->cc_value = dt;
    t->cc_flags = kFromRouter;
    net_->nic(router_node_[router]).send_control(t, now);
  }
  router_throttles_ += static_cast<int64_t>(batch_.size());
  if (!batch_.empty() && first_router_throttle_ < 0) first_router_throttle_ = now;
  throttles_ += static_cast<int64_t>(batch_.size());
  max_dt_ = std::max(max_dt_, dt);
  router_wake(router, dst, d.next_event(), now);
}

void Cbcm::router_wake(int router, int dst, Cycle next, Cycle now) {
  if (next <= now) return;
  auto& pending = router_pending_[router];
  if (std::find(pending.begin(), pending.end(), dst) == pending.end()) pending.push_back(dst);
  net_->wake(&router_timers_[router], next);
}

void Cbcm::on_router_timer(int router, Cycle now) {
  // Handle the destinations due now; keep those with later events.
  std::vector<int> due;
  due.swap(router_pending_[router]);
  for (int dst : due) {
    const Cycle next = router_detector(router, dst).next_event();
    if (next >= 0 && next <= now)
      router_dispatch(router, dst, now);
    else
      router_wake(router, dst, next, now);
  }
}

void Cbcm::wake(int node, Cycle at) { net_->wake(&timers_[node], at); }

Cycle Cbcm::window_overlap(Cycle from, Cycle to) const {
  const Cycle end = p_.window_start + p_.window_cycles;
  return std::max<Cycle>(0, std::min(to, end) - std::max(from, p_.window_start));
}

void Cbcm::throttled_from(Source& s, int dst, Cycle at) {
  for (auto& e : s.since)
    if (e.first == dst) return;  // a new D_t: still throttled
  s.since.push_back({dst, at});
}

void Cbcm::unthrottled_from(Source& s, int dst, Cycle at) {
  for (size_t i = 0; i < s.since.size(); ++i)
    if (s.since[i].first == dst) {
      throttled_cycles_[dst] += window_overlap(s.since[i].second, at);
      s.since[i] = s.since.back();
      s.since.pop_back();
      return;
    }
}

void Cbcm::advance(int node, Cycle now) {
  Source& s = sources_[node];
  while (s.cycle < now) {
    if (s.throttler->num_throttled() == 0 && s.throttled_now < 0) {
      s.throttler->tick(s.cycle);  // nothing throttled: the idle cycles change nothing
      s.cycle = now;
      return;
    }
    const int n = s.throttler->tick(s.cycle);
    if (s.throttled_now >= 0 && s.throttler->is_throttled(static_cast<uint32_t>(s.throttled_now)))
      throttled_from(s, s.throttled_now, s.cycle);
    s.throttled_now = -1;
    for (int k = 0; k < n; ++k) {
      const int dst = static_cast<int>(s.throttler->unthrottled(k));
      unthrottled_from(s, dst, s.cycle);
      Packet* u = net_->new_control(kUnthrottlePacket, node, dst, kControlClass, no_ref_, now);
      net_->nic(node).send_control(u, now);
      ++unthrottles_;
    }
    ++s.cycle;
  }
}

void Cbcm::on_timer(int node, Cycle now) {
  advance(node, now);
  if (sources_[node].throttler->num_throttled() > 0) wake(node, now + 1);
  dispatch(node, now);
}

void Cbcm::dispatch(int node, Cycle now) {
  HotspotDetector& d = detectors_[node];
  const int dt = d.poll(now, batch_);
  for (int src : batch_) {
    Packet* t = net_->new_control(kThrottlePacket, node, src, kControlClass, no_ref_, now);
    t->cc_value = dt;
    net_->nic(node).send_control(t, now);
  }
  throttles_ += static_cast<int64_t>(batch_.size());
  if (!batch_.empty() && first_throttle_ < 0) first_throttle_ = now;
  max_dt_ = std::max(max_dt_, dt);
  const Cycle next = d.next_event();
  if (next > now) wake(node, next);
}

void Cbcm::on_create(Packet& p) {
  if (p.measured) {
    flow_seen_[static_cast<size_t>(p.src) * words_ + (p.dst >> 6)] |= uint64_t{1} << (p.dst & 63);
    offered_[p.dst] += p.size;
  }
  if (!detecting()) {
    if (p.traffic_class == p_.ideal_class) {
      p.vc_class = static_cast<uint8_t>(hotspot_class());
      p.minimal_only = true;
    }
    return;
  }
  advance(p.src, p.created);
  sources_[p.src].throttler->generated(static_cast<uint32_t>(p.dst), static_cast<uint32_t>(p.size));
}

bool Cbcm::may_inject(NicView& nic, Packet& p, Cycle now) {
  if (p.kind != kDataPacket || !detecting()) return true;
  advance(nic.id(), now);
  Source& s = sources_[nic.id()];
  const uint32_t dst = static_cast<uint32_t>(p.dst);
  // A THROTTLE taken this cycle counts already (Algorithm 1 resets first).
  const bool throttled = s.throttler->is_throttled(dst) || s.throttled_now == p.dst;
  p.minimal_only = throttled;
  p.vc_class = throttled && p_.variant == CbcmParams::Variant::Dedicated ? kHotspotClass : kDataClass;
  p.cc_flags = throttled ? p.cc_flags | kThrottled : p.cc_flags & ~kThrottled;
  if (!throttled) return true;
  // A throttled packet waiting for room on the hotspot class would hold up
  // the NIC's other destinations (the NIC waits for the credits of the
  // packet it picked): skip its destination instead, as when out of tokens.
  if (p.vc_class == kHotspotClass && !can_start(nic, kHotspotClass, p)) return false;
  return !p_.throttle || s.throttler->can_inject(dst, static_cast<uint32_t>(p.size));
}

bool Cbcm::can_start(const NicView& nic, int cls, const Packet& p) const {
  const int need = p_.cut_through ? p.size : 1;
  for (int v = cls * p_.vcs_per_class; v < (cls + 1) * p_.vcs_per_class; ++v)
    if (nic.credits(v) >= need) return true;
  return false;
}

void Cbcm::on_inject(NicView& nic, Packet& p, Cycle) {
  if (p.kind != kDataPacket || !(p.cc_flags & kThrottled)) return;
  ++throttled_injections_;
  if (p_.throttle && !sources_[nic.id()].throttler->inject(static_cast<uint32_t>(p.dst), static_cast<uint32_t>(p.size)))
    throw SimError(fmt::format("node {} injected packet {} without the tokens for it", nic.id(), p.id));
}

void Cbcm::on_switch_forward(SwitchView& r, Packet& p, int, int, int out_port, Cycle now) {
  if (p.kind == kDataPacket && contention_.congested(r.id(), out_port, now)) p.cc_flags |= kMarked;
  // Early detection: the router's detector for the packet's destination, at
  // routers other than the destination's (there the destination detects).
  if (!p_.early || node_router_[p.dst] == r.id()) return;
  if (p.kind == kDataPacket)
    router_detector(r.id(), p.dst).on_data(p.src, contention_.congested_towards(r.id(), p.dst, now), now);
  else if (p.kind == kUnthrottlePacket)
    router_detector(r.id(), p.dst).on_unthrottle(p.src, now);
  else
    return;
  router_dispatch(r.id(), p.dst, now);
}

void Cbcm::on_deliver(NicView& nic, Packet& p, Cycle now) {
  if (!detecting()) return;
  const bool marked = p.cc_flags & kMarked;
  ++delivered_;
  marked_ += marked;
  detectors_[nic.id()].on_data(p.src, marked, now);
  dispatch(nic.id(), now);
}

void Cbcm::on_control(NicView& nic, Packet& c, Cycle now) {
  const int node = nic.id();
  if (c.kind == kUnthrottlePacket) {
    detectors_[node].on_unthrottle(c.src, now);
    dispatch(node, now);
    return;
  }
  if (c.kind != kThrottlePacket) throw SimError(fmt::format("cbcm: unexpected {} packet", packet_kind_name(c.kind)));
  advance(node, now);
  Source& s = sources_[node];
  // A router's THROTTLE counts only if it raises D_t: the destination sees
  // every sender, a router only those passing it.
  if ((c.cc_flags & kFromRouter) &&
      static_cast<int64_t>(s.throttler->throttling_degree(static_cast<uint32_t>(c.src))) >= c.cc_value) {
    ++router_throttles_ignored_;
    return;
  }
  // The ejection channel delivers one flit per cycle: one THROTTLE at most.
  if (!s.throttler->throttle(static_cast<uint32_t>(c.src), static_cast<uint32_t>(c.cc_value)))
    throw SimError(fmt::format("node {} got two THROTTLE packets in cycle {}", node, now));
  s.throttled_now = c.src;
  wake(node, now + 1);
}

int Cbcm::throttling_degree(int src, int dst, Cycle now) {
  advance(src, now);
  return static_cast<int>(sources_[src].throttler->throttling_degree(static_cast<uint32_t>(dst)));
}

std::vector<hw::Block> Cbcm::hardware_blocks() const {
  if (!detecting()) return {};
  return {hw::Block::ContentionDegree, hw::Block::TokenThrottler};
}

nlohmann::json Cbcm::stats() const {
  // Incorrect detection (spec A.11-#29): cycles of the window a source was
  // throttled towards a destination that is not a true hotspot (one offered
  // more than true_hotspot_load flits/cycle in the window), over all flows
  // that sent in the window.
  std::vector<int64_t> throttled = throttled_cycles_;
  const Cycle end = p_.window_start + p_.window_cycles;
  for (auto& s : sources_)
    for (auto& e : s.since) throttled[e.first] += window_overlap(e.second, end);
  int64_t flows = 0, wrong = 0, hotspots = 0;
  for (uint64_t w : flow_seen_) flows += __builtin_popcountll(w);
  for (size_t d = 0; d < throttled.size(); ++d) {
    const bool hot = static_cast<double>(offered_[d]) > p_.true_hotspot_load * static_cast<double>(p_.window_cycles);
    hotspots += hot;
    if (!hot) wrong += throttled[d];
  }
  int64_t overflows = 0, hotspots_detected = 0, hotspot_exits = 0, router_hotspots = 0;
  for (auto& d : router_detectors_) router_hotspots += d.detections();
  for (auto& s : sources_) overflows += static_cast<int64_t>(s.throttler->overflows());
  for (auto& d : detectors_) {
    hotspots_detected += d.detections();
    hotspot_exits += d.exits();
  }
  const char* variant = p_.variant == CbcmParams::Variant::Dedicated ? "dedicated"
                        : p_.variant == CbcmParams::Variant::Shared  ? "shared"
                                                                     : "ideal";
  return {{"variant", variant},
          {"throttle_packets", throttles_},
          {"unthrottle_packets", unthrottles_},
          {"marked_fraction", static_cast<double>(marked_) / std::max<int64_t>(1, delivered_)},
          {"hotspots_detected", hotspots_detected},
          {"hotspot_exits_unmarked", hotspot_exits},
          {"max_throttling_degree", max_dt_},
          {"throttled_injections", throttled_injections_},
          {"true_hotspots", hotspots},
          {"wrongly_throttled_fraction",
           static_cast<double>(wrong) / (static_cast<double>(std::max<int64_t>(1, flows)) * p_.window_cycles)},
          {"throttle_table_overflows", overflows},
          {"detection", p_.early ? "early" : "destination"},
          {"router_hotspots_detected", router_hotspots},
          {"router_throttle_packets", router_throttles_},
          {"router_throttles_ignored", router_throttles_ignored_},
          {"first_throttle_cycle", first_throttle_},
          {"first_router_throttle_cycle", first_router_throttle_}};
}

ProtocolEntry cbcm_protocol_entry() {
  return ProtocolEntry{
      "cbcm",
      "Contention-based congestion management (000 IV): switches mark packets leaving outputs of "
      "sustained contention, destinations that receive only marked packets throttle their senders to 1/D_t, "
      "throttled packets go minimally on a low-priority hotspot class",
      {string_param("congestion.cbcm_variant", "dedicated",
                    "dedicated (000 IV: throttled packets on a "
                    "low-priority hotspot class), shared (VI-B: on the data VCs, throttled to "
                    "cbcm_shared_rate/D_t) or ideal (II-B's oracle: traffic class cbcm_ideal_class on its own VCs, "
                    "routed minimally, no throttling)",
                    {"dedicated", "shared", "ideal"}),
       bool_param("congestion.cbcm_throttle", true,
                  "limit throttled flows to 1/D_t; false keeps only the hotspot "
                  "class and minimal routing (000 VI-C)"),
       float_param("congestion.cbcm_shared_rate", 0.99, "shared variant: throttled rate times D_t (000 VI-B)", 0.001,
                   1),
       string_param("congestion.cbcm_ideal_class", "hotspot",
                    "ideal variant: name of the traffic class isolated "
                    "and routed minimally"),
       string_param("congestion.cbcm_degree", "randomized",
                    "contention degree: randomized (one random requesting "
                    "VC per input counts 1) or weighted (an input's v requesting VCs count 1/v each) (000 IV-B1)",
                    {"randomized", "weighted"}),
       string_param("congestion.cbcm_requests", "va_and_active",
                    "what requests an output: heads waiting for an "
                    "output VC and packets holding one with a flit to move, or only the former (ours)",
                    {"va_and_active", "va_only"}),
       bool_param("congestion.cbcm_count_hotspot_class", true,
                  "requests of throttled packets (hotspot class) "
                  "count in the contention degree (spec A.5.2); control packets never count (ours)"),
       int_param("congestion.cbcm_samples", 100, "NumSamples: cycles in the moving average of the degree (000)", 1,
                 4096),
       int_param("congestion.cbcm_bound_interval", 10, "BoundSampleInterval: cycles per max/min sample (000)", 1, 4096),
       int_param("congestion.cbcm_bound_samples", 10, "max/min samples in their moving averages (000 V-D)", 1, 4096),
       int_param("congestion.cbcm_dest_epoch", 2000,
                 "destination observation epoch in cycles (ours; docs/congestion.md "
                 "gives the sensitivity)",
                 1, 1 << 30),
       int_param("congestion.cbcm_src_epoch", 10000,
                 "source epoch over which the generation rate decides "
                 "unthrottling, cycles (ours)",
                 1, 1 << 24),
       string_param("congestion.cbcm_epoch_restart", "first_throttle",
                    "which THROTTLE restarts a source's epoch: "
                    "the first (ours; a new D_t only resets the tokens) or every_throttle (spec A.5.7, the RTL; "
                    "sources never unthrottle while D_t changes faster than the epoch)",
                    {"first_throttle", "every_throttle"}),
       string_param("congestion.cbcm_hotspot_exit", "unmarked_epoch",
                    "when a hotspot stops being one: when its "
                    "list empties (000; under UR a false hotspot keeps hearing from new senders) or also after a "
                    "destination epoch with an unmarked packet (ours)",
                    {"list_empty", "unmarked_epoch"}),
       string_param("congestion.cbcm_detection", "destination",
                    "where endpoint congestion is detected: at the "
                    "destination (000 IV) or early, also at intermediate routers with a metric per destination node "
                    "(000 VI-A; the routers' THROTTLEs raise D_t only)",
                    {"destination", "early"}),
       int_param("congestion.cbcm_router_epoch", 0,
                 "early detection: the routers' observation epoch in cycles; 0 = "
                 "cbcm_dest_epoch (ours)",
                 0, 1 << 30),
       int_param("congestion.cbcm_min_dt", 2,
                 "least number of listed sources that makes a hotspot (ours: 000 "
                 "V-B never throttles with D_t = 1)",
                 1, 1 << 24),
       float_param("congestion.cbcm_epsilon", 0.05,
                   "control bandwidth share: after D_t throttle packets none for "
                   "D_t/epsilon cycles (000's example value)",
                   0, 1),
       float_param("congestion.cbcm_true_hotspot_load", 2.0,
                   "statistics only: a destination offered more "
                   "flits/cycle than this in the window is a true hotspot; throttling towards any other counts as "
                   "wrong (wrongly_throttled_fraction; ours: UR offers ~load +- noise, a 4:1 hotspot 4)",
                   0, 1e9),
       int_param("congestion.cbcm_table_entries", 16,
                 "throttled destinations a source tracks; a throttle beyond "
                 "them is ignored and counted (ours)",
                 1, 4096)},
      [](const Config& c) { return std::make_unique<Cbcm>(CbcmParams::from_config(c)); }};
}

}  // namespace ccsim
