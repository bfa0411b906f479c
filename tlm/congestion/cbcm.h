// congestion.protocol = "cbcm": contention-based congestion management (000
// section IV; spec A.5). Network congestion is left to adaptive routing; only
// endpoint congestion is throttled.
//   Switch: per output port the contention degree of every cycle's VC-
//     allocation requests and its moving-average metric (ContentionDegreeMonitor);
//     a data packet leaving a congested output is marked.
//   Destination: the hotspot detector (HotspotDetector) sends 1-flit THROTTLE
//     packets carrying D_t on a high-priority control class.
//   Source, per throttled destination: the token throttler block (Algorithm 1,
//     tlm/blocks/token_throttler.h) limits injection to 1/D_t flits/cycle; the
//     throttled packets go on a low-priority hotspot class and are routed
//     minimally (Packet::minimal_only). When the generation rate towards the
//     destination over a source epoch fell below 1/D_t the source unthrottles
//     itself and sends UNTHROTTLE.
// Variants (cbcm_variant): "dedicated" (IV), "shared" (VI-B: no hotspot class,
// throttled to cbcm_shared_rate/D_t), "ideal" (the oracle of II-B: the traffic
// class cbcm_ideal_class on its own VCs, routed minimally, nothing throttled).
// cbcm_throttle = false keeps the isolation without the tokens (VI-C).
// cbcm_detection = "early" (VI-A) adds detection at intermediate routers: each
// router keeps the contention metric per destination node and runs a hotspot
// detector per destination over the data packets it forwards towards nodes of
// other routers; a router hotspot sends THROTTLE packets (from a node attached
// to the router) to the sources it listed. A source takes a router's THROTTLE
// only if it raises D_t; the destination's THROTTLEs always count.
#pragma once
#include <utility>
#include <vector>

#include "blocks/token_throttler.h"
#include "hw/blocks.h"
#include "congestion/congestion_control.h"
#include "congestion/contention_degree_monitor.h"
#include "congestion/hotspot_detector.h"
#include "core/params.h"
#include "core/scheduler.h"

namespace ccsim {

struct CbcmParams {
  enum class Variant { Dedicated, Shared, Ideal } variant = Variant::Dedicated;
  bool throttle = true;
  double shared_rate = 0.99;
  int ideal_class = -1;  // traffic class index (Ideal)
  int table_entries = 16;
  Cycle src_epoch = 10000;
  bool update_restarts_epoch = false;  // a THROTTLE with a new D_t restarts the source epoch
  bool early = false;                  // also detect at intermediate routers (000 VI-A)
  Cycle router_epoch = 0;              // their observation epoch; 0: the destination's
  ContentionDegreeParams contention;
  DetectorParams detector;
  int vcs_per_class = 1;
  bool cut_through = true;
  Cycle window_start = 0, window_cycles = 1;  // measurement window, for the statistics
  double true_hotspot_load = 2.0;             // statistics: offered flits/cycle that make a destination a true hotspot
  static CbcmParams from_config(const Config& c);
};

inline const PacketKind kThrottlePacket = declare_packet_kind("throttle");
inline const PacketKind kUnthrottlePacket = declare_packet_kind("unthrottle");

class Cbcm : public CongestionControl {
 public:
  // VC classes; the ideal variant has no control class and its hotspot class is 1.
  static constexpr int kDataClass = 0, kControlClass = 1, kHotspotClass = 2;
  // cc_flags of data packets: marked by a congested output; sent throttled.
  static constexpr uint32_t kMarked = 1, kThrottled = 2;
  // cc_flags of THROTTLE packets: sent by an intermediate router (early detection).
  static constexpr uint32_t kFromRouter = 4;

  explicit Cbcm(const CbcmParams& p) : p_(p) {}
  void attach(ProtocolContext& net) override;
  std::vector<VcClass> vc_classes() const override;
  void on_create(Packet& p) override;
  bool may_inject(NicView& nic, Packet& p, Cycle now) override;
  void on_inject(NicView& nic, Packet& p, Cycle now) override;
  void on_vc_allocation(SwitchView& r, Cycle now) override { contention_.sample(r, now); }
  void on_switch_forward(SwitchView& r, Packet& p, int in_port, int in_vc, int out_port, Cycle now) override;
  void on_deliver(NicView& nic, Packet& p, Cycle now) override;
  void on_control(NicView& nic, Packet& c, Cycle now) override;
  bool has_switch_hook() const override { return detecting(); }
  bool has_allocation_hook() const override { return detecting(); }
  nlohmann::json stats() const override;
  std::vector<hw::Block> hardware_blocks() const override;

  // Inspection (tests): the D_t node `src` is throttled with towards `dst` (0: not throttled).
  int throttling_degree(int src, int dst, Cycle now);

 private:
  // Wakes for a node's timers: its throttler ticks every cycle while it
  // throttles something; its detector's epoch and quiet-period ends.
  struct NodeTimer : Component {
    Cbcm* cc = nullptr;
    int node = 0;
    void step(Cycle now) override { cc->on_timer(node, now); }
  };
  // Early detection: wakes for the epoch and quiet-period ends of a router's detectors.
  struct RouterTimer : Component {
    Cbcm* cc = nullptr;
    int router = 0;
    void step(Cycle now) override { cc->on_router_timer(router, now); }
  };
  struct Source {
    std::unique_ptr<hw::TokenThrottler> throttler;  // reference or RTL ([hardware] token_throttler)
    Cycle cycle = 0;                                // the cycle whose events the throttler holds
    int throttled_now = -1;                         // destination of a THROTTLE taken in `cycle`
    std::vector<std::pair<int, Cycle>> since;       // throttled destinations, since when (statistics)
  };
  bool detecting() const { return p_.variant != CbcmParams::Variant::Ideal; }
  // Whether `nic` has an injection VC of class `cls` with room for `p` now.
  bool can_start(const NicView& nic, int cls, const Packet& p) const;
  int hotspot_class() const { return detecting() ? kHotspotClass : 1; }
  // Ticks node's throttler through every cycle before `now`; sends the UNTHROTTLEs it decides.
  void advance(int node, Cycle now);
  void on_timer(int node, Cycle now);
  void wake(int node, Cycle at);
  // Sends the THROTTLE batch node's detector owes now, and sets its next wake-up.
  void dispatch(int node, Cycle now);
  void throttled_from(Source& s, int dst, Cycle at);
  void unthrottled_from(Source& s, int dst, Cycle at);
  Cycle window_overlap(Cycle from, Cycle to) const;
  // Early detection: router r's detector for destination d saw a packet or an
  // UNTHROTTLE; sends the THROTTLE batch it owes and sets its next wake-up.
  void on_router_timer(int router, Cycle now);
  void router_dispatch(int router, int dst, Cycle now);
  // Keeps destination `dst` of `router` pending and wakes the router at `next` (if after `now`).
  void router_wake(int router, int dst, Cycle next, Cycle now);
  HotspotDetector& router_detector(int router, int dst) {
    return router_detectors_[static_cast<size_t>(router) * node_router_.size() + dst];
  }

  CbcmParams p_;
  ContentionDegreeMonitor contention_;
  std::vector<HotspotDetector> detectors_;
  std::vector<Source> sources_;
  std::vector<NodeTimer> timers_;
  std::vector<int> batch_;                 // reused THROTTLE destinations
  Packet no_ref_;                          // control packets answer no particular data packet
  int words_ = 0;                          // 64-bit words per node in flow_seen_
  std::vector<uint64_t> flow_seen_;        // (src, dst) flows with packets made in the window
  std::vector<int64_t> offered_;           // flits made in the window, per destination
  std::vector<int64_t> throttled_cycles_;  // window cycles some source was throttled, per destination
  int64_t throttles_ = 0, unthrottles_ = 0, throttled_injections_ = 0;
  int64_t delivered_ = 0, marked_ = 0;
  int max_dt_ = 0;
  // Early detection (VI-A).
  std::vector<int> node_router_;                   // router of each node
  std::vector<int> router_node_;                   // a node of each router: injects its THROTTLEs
  std::vector<HotspotDetector> router_detectors_;  // per router and destination
  std::vector<std::vector<int>> router_pending_;   // per router: destinations with time-driven events
  std::vector<RouterTimer> router_timers_;
  int64_t router_throttles_ = 0, router_throttles_ignored_ = 0;
  Cycle first_throttle_ = -1, first_router_throttle_ = -1;  // cycle of the first batch (-1: none)
};

}  // namespace ccsim
