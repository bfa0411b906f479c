// routing.algorithm = "qcn_switch" on the dragonfly: QCN-Switch (paper 001,
// Benito et al., "Non-minimal adaptive routing based on explicit congestion
// notifications"; spec A.3-A.9). Source-adaptive statistical routing:
//  * QCN congestion points sample the transit output buffers (the final
//    design) or the transit input buffers of every switch (one sample per CPC
//    packets through a buffer; qcn_congestion_point.h). A congested sample
//    sends, with probability %CNMs, a CNM with the 6-bit |Fb| towards the
//    source NIC of the sampled packet.
//  * The source's access switch intercepts the CNM (it never reaches the NIC)
//    and updates the minimal-routing probability of the port it arrived on
//    (qcn_port_probabilities.h: AIMD, optional feedback comparison). A CNM
//    made by the access switch itself updates the sampled output port.
//  * At injection a packet to another group draws N in 1..100; if N exceeds
//    the probability of its minimal output port, the conditional minimal rule
//    is skipped and the packet takes the low-priority rule of its injection
//    port: global port (terminal index mod h) of this switch, then minimal
//    from the group it reaches (path g l g l; no local hop in the source
//    group). When that rule is the minimal port itself, it goes minimally.
//    (routing.qcn_nonminimal_port = "random": a global port of this switch
//    drawn per packet instead, for what a fixed alternative does.)
//    In-transit and intra-group traffic always goes minimally.
//  * Source processing (input sampling): a CNM is also applied at the switch
//    that made it, to the output port the sampled packet takes there (plain
//    decrease, only for packets leaving the group).
// CNMs (routing.qcn_cnm_transport): "packets" as 001, 1-flit packets on a VC
// class of their own ahead of data (001: 64-byte frames on the top class of
// service), routed minimally and read by the source's access switch when it
// routes them (they then cross its ejection channel and are discarded at the
// NIC: one flit per CNM that 001's switch does not spend); or "zero_load"
// (earlier ccsim): each reaches the source switch after the zero-load latency
// of the minimal path back (router + link latency per hop), without queuing
// or bandwidth.
// VC template as VAL: l g l g l, 3 local / 2 global slots.
#include <algorithm>
#include <memory>
#include <queue>
#include <vector>

#include "congestion/qcn.h"
#include "congestion/qcn_congestion_point.h"
#include "core/settings.h"
#include "registry.h"
#include "routing/dragonfly_routing.h"
#include "routing/qcn_cnm_stats.h"
#include "routing/qcn_port_probabilities.h"
#include "routing/qcn_probability_probe.h"

namespace ccsim {
namespace {

class DragonflyQcnSwitch : public DragonflyRouting {
 public:
  DragonflyQcnSwitch(const Dragonfly& df, const Config& c)
      : DragonflyRouting(df, {1, 1, 1}),
        output_sampling_(c.get_string("routing.qcn_sampling") == "output"),
        cnm_packets_(c.get_string("routing.qcn_cnm_transport") == "packets"),
        queued_victim_(c.get_string("routing.qcn_victim") == "queued"),
        source_processing_(c.get_bool("routing.qcn_source_processing")),
        random_alternative_(c.get_string("routing.qcn_nonminimal_port") == "random"),
        settings_(NetworkSettings::from_config(c)) {
    if (cnm_packets_ && c.get_string("congestion.protocol") == "qcn")
      throw ConfigError("routing.qcn_cnm_transport",
                        "\"packets\" cannot run with congestion.protocol = \"qcn\", whose CNMs are packets of the "
                        "same kind; use \"zero_load\"");
    sw_.lf = c.get_float("routing.qcn_lf");
    sw_.pi = c.get_float("routing.qcn_pi");
    sw_.fb_compare = c.get_bool("routing.qcn_fb_compare");
    sw_.th1 = c.get_float("routing.qcn_th1");
    sw_.th2 = c.get_float("routing.qcn_th2");
    const int cpc = static_cast<int>(c.get_int("routing.qcn_cpc"));
    const int pcl = static_cast<int>(c.get_int("routing.qcn_pc_limit"));
    sw_.pc_limit = pcl > 0 ? pcl : cpc;
    // Q_eq: a share of one VC's buffer, or of the port's (001: 20% of the physical buffer, the 100 KB
    // transit queue): the sampled occupancy is the port's, all VCs.
    const double qeq = c.get_float("routing.qcn_qeq");
    const int vcs = c.get_string("routing.qcn_qeq_of") == "port" ? static_cast<int>(c.get_int("router.vcs")) : 1;
    for (int k = 0; k < 2; ++k) {
      QcnCpParams& cp = k == 0 ? cp_local_ : cp_global_;
      const int d = vcs * (output_sampling_ ? settings_.output_buffer
                                            : settings_.depth(k == 0 ? PortKind::Local : PortKind::Global));
      cp = QcnCpParams::from_config(c, "routing");
      cp.q_eq = std::max(1, static_cast<int>(qeq * d + 0.5));
    }
    const int first = df_.p(), transit = df_.a() - 1 + df_.h();
    for (int r = 0; r < df_.num_routers(); ++r) {
      tables_.emplace_back(first, transit, &sw_);
      for (int port = first; port < first + transit; ++port)
        cps_.emplace_back(df_.port_kind(r, port) == PortKind::Global ? &cp_global_ : &cp_local_);
    }
    probe_ = std::make_unique<QcnProbabilityProbe>(df_, tables_, settings_.series_window);
    if (c.get_bool("routing.qcn_cnm_stats")) {
      const Cycle start = c.get_int("sim.warmup");
      cnm_stats_ = std::make_unique<QcnCnmStats>(start, start + c.get_int("sim.measure"));
    }
  }

  RouteResult route(RouterContext& ctx, int in_port, Packet& p) override {
    const int r = ctx.router_id();
    catch_up(ctx.cycle());
    if (cnm_packets_ && p.kind == kCnmPacket) {
      if (r == df_.node_router(p.dst)) {  // intercepted
        apply_cnm(r, in_port, static_cast<int>(p.cc_value), ctx.cycle());
        ++cnm_packets_read_;
      }
      return follow(ctx, p);
    }
    if (!p.decided) {
      p.decided = true;
      const int gs = df_.group_of(r), gd = df_.group_of_node(p.dst);
      if (df_.port_kind(r, in_port) == PortKind::Terminal && gs != gd && !p.minimal_only) {
        const int m = min_port(r, p);
        const int alt = df_.first_global_port() +
                        (random_alternative_ ? static_cast<int>(ctx.rng().below(df_.h())) : in_port % df_.h());
        ++decisions_;
        if (alt != m && static_cast<double>(1 + ctx.rng().below(100)) > tables_[r].probability(m)) {
          ++nonminimal_;
          p.intermediate = df_.group_of(df_.peer(r, alt).id);
          p.misrouted = true;
          return take(r, alt, p);
        }
      }
    }
    return follow(ctx, p);
  }

  bool wants_forward_events() const override { return true; }

  void on_forward(RouterContext& ctx, const Packet& p, int in_port, int out_port) override {
    const bool cnm = cnm_packets_ && p.kind == kCnmPacket;
    if (p.kind != kDataPacket && !cnm) return;
    const int r = ctx.router_id();
    catch_up(ctx.cycle());
    PortProbabilityTable& t = tables_[r];
    if (t.is_transit(out_port)) t.on_transmit(out_port);  // CNMs count towards PC_l too (FOGSim)
    if (cnm) return;
    const int sampled = output_sampling_ ? out_port : in_port;
    if (!t.is_transit(sampled)) return;
    const int q = output_sampling_ ? ctx.output_queue_flits(out_port) : ctx.input_queue_flits(in_port);
    const int fb = cps_[static_cast<size_t>(r) * t.count() + (sampled - df_.p())].on_packet(q, ctx.rng(), ctx.cycle());
    if (fb == 0) return;
    ++cnms_;
    fb_total_ += fb;
    if (source_processing_ && !output_sampling_ && df_.group_of_node(p.dst) != df_.group_of(r) &&
        t.is_transit(out_port)) {
      t.decrease(out_port, fb);
      ++source_processed_;
    }
    send_cnm(ctx, out_port, victim(ctx, p, in_port, out_port), fb);
  }

  bool sends_notifications() const override { return cnm_packets_; }

  nlohmann::json stats() const override {
    nlohmann::json j = {
        {"cnms", cnms_},
        {"cnms_at_own_switch", cnms_local_},
        {"cnm_mean_fb", cnms_ ? static_cast<double>(fb_total_) / static_cast<double>(cnms_) : 0.0},
        {"source_processed", source_processed_},
        {"injection_decisions", decisions_},
        {"nonminimal_decisions", nonminimal_},
    };
    if (cnm_stats_) j["cnm_outcomes"] = cnm_stats_->to_json();
    if (cnm_packets_) {
      j["cnm_packets_sent"] = cnm_packets_sent_;
      j["cnm_packets_read"] = cnm_packets_read_;
    }
    probe_->add_to(j);
    return j;
  }

 private:
  struct PendingCnm {
    Cycle due;
    uint64_t seq;
    int router, port, fb;
    bool operator>(const PendingCnm& o) const { return due != o.due ? due > o.due : seq > o.seq; }
  };

  // A CNM intercepted by switch `r` for its transit `port`.
  void apply_cnm(int r, int port, int fb, Cycle now) {
    const CnmOutcome o = tables_[r].on_cnm(port, fb);
    if (cnm_stats_) cnm_stats_->record(now, df_.port_kind(r, port) == PortKind::Global, o, fb, tables_[r].fb_average());
  }

  // Whose source a congested sample notifies: the packet crossing, or (routing.qcn_victim =
  // "queued") a random packet of the sampled input buffer (001) or the head of the sampled
  // output queue (FOGSim); the packet crossing when that one is not data (a CNM).
  const Packet& victim(RouterContext& ctx, const Packet& p, int in_port, int out_port) {
    if (!queued_victim_) return p;
    const Packet* v = nullptr;
    if (output_sampling_) {
      v = ctx.output_head(out_port);
    } else if (const int n = ctx.input_packets(in_port); n > 0) {
      v = &ctx.input_packet(in_port, static_cast<int>(ctx.rng().below(n)));
    }
    return v && v->kind == kDataPacket ? *v : p;
  }

  // The CNM for sampled packet `p` goes back to the access switch of p's source.
  void send_cnm(RouterContext& ctx, int out_port, const Packet& p, int fb) {
    const int r = ctx.router_id(), s = df_.node_router(p.src);
    if (s == r) {
      // Made by the access switch itself: the sampled output port (001 3.3.1).
      if (output_sampling_ && tables_[r].is_transit(out_port)) {
        apply_cnm(r, out_port, fb, ctx.cycle());
        ++cnms_local_;
      }
      return;
    }
    if (cnm_packets_) {
      ctx.send_notification(kCnmPacket, p.src, fb, p);
      ++cnm_packets_sent_;
      return;
    }
    Cycle delay = 0;
    int cur = r, in = -1;
    while (cur != s) {
      const int port = df_.min_port_to_router(cur, s, copy_for(p));
      delay += settings_.router_latency + settings_.latency(df_.port_kind(cur, port));
      const PortPeer peer = df_.peer(cur, port);
      cur = peer.id;
      in = peer.port;
    }
    pending_.push({ctx.cycle() + delay, seq_++, s, in, fb});
  }

  // Intercepts the CNMs due by `now`, and records the time series.
  void catch_up(Cycle now) {
    while (!pending_.empty() && pending_.top().due <= now) {
      const PendingCnm c = pending_.top();
      pending_.pop();
      apply_cnm(c.router, c.port, c.fb, now);
    }
    probe_->sample(now, cnms_);
  }

  QcnSwitchParams sw_;
  QcnCpParams cp_local_, cp_global_;
  bool output_sampling_, cnm_packets_, queued_victim_, source_processing_, random_alternative_;
  NetworkSettings settings_;
  std::vector<PortProbabilityTable> tables_;  // per router
  std::vector<QcnCongestionPoint> cps_;       // per router, per transit port
  std::priority_queue<PendingCnm, std::vector<PendingCnm>, std::greater<PendingCnm>> pending_;
  uint64_t seq_ = 0;
  int64_t cnm_packets_sent_ = 0, cnm_packets_read_ = 0;
  int64_t cnms_ = 0, cnms_local_ = 0, fb_total_ = 0, source_processed_ = 0, decisions_ = 0, nonminimal_ = 0;
  std::unique_ptr<QcnProbabilityProbe> probe_;
  std::unique_ptr<QcnCnmStats> cnm_stats_;  // routing.qcn_cnm_stats, or null
};

}  // namespace

RoutingEntry dragonfly_qcn_switch_entry() {
  return {
      "qcn_switch", "dragonfly",
      "QCN-Switch (001): QCN congestion points in the switches, CNMs intercepted by the source's access switch "
      "update per-port minimal-routing probabilities (AIMD); at injection a packet skips its minimal rule when "
      "a random N in 1..100 exceeds its port's probability; 3 VC slots",
      qcn_congestion_point_params(
          "routing", "qcn_switch",
          "buffers the congestion points sample: "
          "transit output queues (001's final design) or transit input buffers",
          {bool_param("routing.qcn_fb_compare", true, "qcn_switch: feedback comparison (001 3.2; the final design)"),
           bool_param("routing.qcn_source_processing", false,
                      "qcn_switch: input sampling also applies each CNM at "
                      "the switch that made it (001 3.3.1)"),
           float_param("routing.qcn_lf", 1.0 / 64, "qcn_switch: reduction limiting factor L_f (001: 1/64)", 0.0, 1.0),
           int_param("routing.qcn_pc_limit", 0,
                     "qcn_switch: PC_l, packets through a port without a CNM before "
                     "its probability rises by PI; 0 = CPC (001: 100, set with CPC in 5.3.1)",
                     0, 1 << 20),
           float_param("routing.qcn_pi", 1.0, "qcn_switch: probability increase PI, percentage points (001: 1)", 0.0,
                       100.0),
           float_param("routing.qcn_th1", 0, "qcn_switch: feedback-comparison threshold Th_1 (001: 0)", 0.0, 63.0),
           float_param("routing.qcn_th2", 30, "qcn_switch: feedback-comparison threshold Th_2 (001: 30)", 0.0, 63.0),
           string_param("routing.qcn_cnm_transport", "zero_load",
                        "qcn_switch: CNMs as 1-flit packets on a VC class of their own ahead of data (001: 64-byte "
                        "frames on the top class of service), or delivered after the zero-load latency of the "
                        "minimal path back without queuing or bandwidth (earlier ccsim)",
                        {"zero_load", "packets"}),
           bool_param("routing.qcn_cnm_stats", false,
                      "qcn_switch: report cnm_outcomes, per port kind how many intercepted CNMs of the measured "
                      "window raised, kept or cut their port's probability, with their mean Fb and Fb_avg"),
           string_param("routing.qcn_victim", "crossing",
                        "qcn_switch: whose source a congested sample notifies: the packet crossing the sampled "
                        "buffer, or a packet queued in it (input sampling: a random packet of the input buffer, "
                        "as 001; output sampling: the head of the output queue, as FOGSim)",
                        {"crossing", "queued"}),
           string_param("routing.qcn_nonminimal_port", "injection_port",
                        "qcn_switch: the global port of its own switch a packet takes when it skips its minimal "
                        "rule: the one its injection port's index names (mod h; 001's low-priority rule per "
                        "input port), or one drawn at random for each packet (spreads a node's non-minimal "
                        "traffic over the switch's global links, as Valiant's choice would)",
                        {"injection_port", "random"}),
           string_param("routing.qcn_qeq_of", "vc",
                        "qcn_switch: qcn_qeq is a share of one VC's buffer (ours) or of the port's, all its VCs (001: "
                        "20% of the physical buffer); the sampled occupancy is the port's either way",
                        {"vc", "port"})}),
      [](const Config& c, const Topology& t) {
        return std::make_unique<DragonflyQcnSwitch>(dynamic_cast<const Dragonfly&>(t), c);
      }};
}

}  // namespace ccsim
