#include "congestion/lhrp.h"

#include <fmt/format.h>

#include <algorithm>

#include "congestion/protocol_context.h"
#include "registry.h"

namespace ccsim {

namespace {
bool has_handshake(const Config& c) {
  return c.get_int("congestion.lhrp_fabric_timeout") > 0 || c.get_int("congestion.lhrp_srp_min_flits") > 0;
}

// The largest packet of any traffic class or phase (flits).
int max_packet_size(const Config& c) {
  int64_t m = c.get_int("traffic.packet_size");
  for (const Config& ph : c.phases) m = std::max(m, ph.get_int("traffic.packet_size"));
  for (const Config& cl : c.classes) m = std::max<int64_t>(m, max_packet_size(cl));
  return static_cast<int>(m);
}
}  // namespace

// What the last-hop count of one endpoint e can reach at switch r: it counts a
// packet's flits from its head's arrival at an input of r (+size) until each
// reaches e (-1), reservations excepted (consumed at arrival). So at most every
// VC that can hold flits for e full of them: every VC of every connected input
// (e's own injection port too: the switch's NIC sends control packets to its
// own endpoint), of every class but the reservation class; under wormhole
// also the flits still upstream of the last packet whose head entered each VC;
// plus e's output queue and the flits on the ejection channel. Which VCs the
// routing really uses at the last hop is not counted out: an upper bound.
// (attach() runs before the routers exist: the buffers come from the topology
// and the settings the network builds them from.)
Lhrp::Reach Lhrp::reach(ProtocolContext& net, int router) const {
  const NetworkSettings& st = net.settings();
  const Topology& t = net.topology();
  const int64_t classes = static_cast<int64_t>(vc_classes().size());
  const int64_t vcs = st.vcs_per_class * (classes > kReservationClass ? classes - 1 : classes);
  const int64_t tail = st.cut_through ? 0 : max_packet_size(net.config()) - 1;
  Reach r;
  for (int port = 0; port < t.radix(router); ++port)
    if (t.peer(router, port).id >= 0) r.inputs += vcs * (st.depth(t.port_kind(router, port)) + tail);
  r.output = vcs * st.output_buffer;
  r.ejection = st.latency(PortKind::Terminal);
  r.held = r.inputs + r.output + r.ejection;
  r.total = std::min<int64_t>(r.held, (int64_t{1} << block_.count_width) - 1);  // the counter saturates
  return r;
}

// congestion.lhrp_threshold: 0 derives it from the switches; a value no
// last-hop switch's count can reach (LHRP would never drop) is refused.
void Lhrp::set_threshold(ProtocolContext& net, int64_t configured) {
  const Topology& t = net.topology();
  std::vector<bool> last_hop(t.num_routers(), false);
  for (int n = 0; n < t.num_nodes(); ++n) last_hop[t.node_router(n)] = true;
  Reach least;
  int least_router = -1;
  for (int r = 0; r < t.num_routers(); ++r) {
    if (!last_hop[r]) continue;
    const Reach x = reach(net, r);
    if (least_router < 0 || x.held < least.held) least = x, least_router = r;
  }
  // The count must reach theta (6.3), or exceed it with lhrp_strict (3.2).
  const int64_t largest = block_.threshold_strict ? least.total - 1 : least.total;
  const int64_t theta = configured > 0 ? configured : std::clamp<int64_t>(least.held / 100, 1, kPaperThreshold);
  if (theta > largest)
    throw ConfigError(
        "congestion.lhrp_threshold",
        fmt::format("{} flits{} are never queued for one endpoint at a last-hop switch of this network: switch {} "
                    "{} (input buffers {}, output queue {}, ejection channel {}), so LHRP would never drop there; "
                    "the largest threshold that drops is {}",
                    theta, configured > 0 ? "" : " (derived)", least_router,
                    least.held == least.total ? fmt::format("holds at most {}", least.held)
                                              : fmt::format("counts at most {} ({}-bit counter) of the {} it holds",
                                                            least.total, block_.count_width, least.held),
                    least.inputs, least.output, least.ejection, largest));
  block_.drop_threshold = static_cast<int>(theta);
}

Lhrp::Lhrp(const Config& cfg)
    : SpeculativeProtocol(cfg, cfg.get_int("congestion.lhrp_fabric_timeout"), has_handshake(cfg)),
      srp_min_flits_(static_cast<int>(cfg.get_int("congestion.lhrp_srp_min_flits"))),
      srp_overhead_(cfg.get_float("congestion.srp_overhead")) {
  block_.threshold_strict = cfg.get_bool("congestion.lhrp_strict");
  coalesce_after_ = static_cast<int>(cfg.get_int("congestion.lhrp_coalesce_after"));
  speculative_limit_ = static_cast<int>(cfg.get_int("congestion.srp_speculative_limit"));
  retry_limit_ = static_cast<int>(cfg.get_int("congestion.lhrp_speculative_limit"));
}

void Lhrp::attach(ProtocolContext& net) {
  SpeculativeProtocol::attach(net);
  // Rescued packets travel the recovery lane to their NIC without passing the
  // last-hop switch: its scheduler would neither see nor grant them.
  if (net.settings().deadlock_recovery)
    throw ConfigError("routing.deadlock",
                      "\"recovery\" is not modelled with congestion.protocol = \"lhrp\" (the recovery lane bypasses "
                      "the last-hop reservation scheduler); use \"avoidance\"");
  set_threshold(net, net.config().get_int("congestion.lhrp_threshold"));
  const Topology& t = net.topology();
  block_.num_endpoints = 1;
  for (int n = 0; n < t.num_nodes(); ++n) block_.num_endpoints = std::max(block_.num_endpoints, t.node_port(n) + 1);
  switches_.assign(t.num_routers(), block_, net.hardware(), "router");
}

bool Lhrp::on_switch_arrival(SwitchView& r, Packet& p, int, Cycle now) {
  const Topology& t = net_->topology();
  if (t.node_router(p.dst) != r.id()) return false;
  const int e = t.node_port(p.dst);
  hw::LastHopScheduler& s = switches_.at(r.id(), now);
  if (p.kind == kReservationPacket) {  // consumed here: the grant goes back at once
    const uint32_t booked = booked_cycles(p, srp_overhead_);
    Packet* gnt = net_->new_control(kGrantPacket, net_->switch_nic(r.id()).id(), p.src, kGrantClass, p, now);
    gnt->cc_value = static_cast<Cycle>(s.reserve(e, booked, static_cast<uint64_t>(now)));
    send_from_switch(r, gnt, now);
    return true;
  }
  if (p.kind == kDataPacket && p.vc_class == kSpeculativeClass) {
    ++speculative_;
    if (s.should_drop(e)) {
      // An SRP message of the combined protocol has its own reservation.
      if (reservation_policy(p) == Policy::Retry) {
        p.cc_value = static_cast<int64_t>(s.reserve(e, static_cast<uint32_t>(p.size), static_cast<uint64_t>(now)));
        p.cc_flags |= kTimedDrop;
      }
      return true;
    }
  }
  s.enqueue(e, static_cast<uint32_t>(p.size));
  return false;
}

// Fabric drops happen before the last hop: there, the scheduler decides.
bool Lhrp::may_drop_in_fabric(SwitchView& r, const Packet& p) { return net_->topology().node_router(p.dst) != r.id(); }

void Lhrp::on_eject(const Packet& p, Cycle now) {
  const Topology& t = net_->topology();
  switches_.at(t.node_router(p.dst), now).dequeue(t.node_port(p.dst), 1);
}

nlohmann::json Lhrp::stats() const {
  nlohmann::json j = SpeculativeProtocol::stats();
  j["speculative_at_last_hop"] = speculative_;
  j["threshold"] = block_.drop_threshold;
  if (srp_min_flits_ > 0) add_limit_stats(j);
  if (retry_limit_ > 0) {
    j["lhrp_speculative_limit"] = retry_limit_;
    j["max_speculative_messages_in_flight"] = max_speculative_in_flight();
  }
  return j;
}

ProtocolEntry lhrp_protocol_entry() {
  return ProtocolEntry{
      "lhrp",
      "Last-Hop Reservation Protocol (003): speculative first, dropped only at the last-hop switch above "
      "the threshold, NACK with a retransmission time from the switch's reservation scheduler",
      {speculative_acks_param(),
       int_param("congestion.lhrp_threshold", 0,
                 "flits queued at the last-hop switch for an endpoint at which its speculative packets are "
                 "dropped; 0 = derived: 1% of the most flits a last-hop switch can hold for one endpoint (003's "
                 "1000 is 0.9% of its switches' 115,201), at most 1000 (003 Table 1, the value on 003's network); "
                 "a value no last-hop switch can reach is an error",
                 0, 65535),
       bool_param("congestion.lhrp_strict", false, "drop only above the threshold (003 3.2) instead of at it (6.3)"),
       int_param("congestion.lhrp_fabric_timeout", 0,
                 "fabric drop (003 6.1): speculative packets queued this many "
                 "cycles are dropped before the last hop, NACKed without a time; 0 = off (6.1 uses 1000)",
                 0),
       int_param("congestion.lhrp_speculative_limit", 0,
                 "messages per destination a source may have in speculative flight, each until all its packets "
                 "have gone and each was ACKed or NACKed; a message beyond it waits at the source; 0 = no limit "
                 "(003 3.2 sends every message speculatively)",
                 0, 1 << 20),
       int_param("congestion.lhrp_coalesce_after", 2,
                 "reservation-less NACKs of a message in a row after which "
                 "its source reserves at the last-hop switch (fabric drop)",
                 1, 1 << 20),
       int_param("congestion.lhrp_srp_min_flits", 0,
                 "combined protocol (003 6.4): messages of at least this many "
                 "flits use SRP with the last-hop scheduler; 0 = off (6.4 uses 48)",
                 0),
       float_param("congestion.srp_overhead", 0.05, "combined protocol: SRP reservations book size * (1 + this)", 0,
                   10),
       srp_speculative_limit_param("combined protocol: SRP ")},
      [](const Config& c) { return std::make_unique<Lhrp>(c); }};
}

}  // namespace ccsim
