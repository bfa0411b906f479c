#include "congestion/lhrp.h"

#include <algorithm>

#include "congestion/protocol_context.h"
#include "registry.h"

namespace ccsim {

namespace {
bool has_handshake(const Config& c) {
  return c.get_int("congestion.lhrp_fabric_timeout") > 0 || c.get_int("congestion.lhrp_srp_min_flits") > 0;
}
}  // namespace

Lhrp::Lhrp(const Config& cfg)
    : SpeculativeProtocol(cfg, cfg.get_int("congestion.lhrp_fabric_timeout"), has_handshake(cfg)),
      srp_min_flits_(static_cast<int>(cfg.get_int("congestion.lhrp_srp_min_flits"))),
      srp_overhead_(cfg.get_float("congestion.srp_overhead")) {
  block_.drop_threshold = static_cast<int>(cfg.get_int("congestion.lhrp_threshold"));
  block_.threshold_strict = cfg.get_bool("congestion.lhrp_strict");
  coalesce_after_ = static_cast<int>(cfg.get_int("congestion.lhrp_coalesce_after"));
  speculative_limit_ = static_cast<int>(cfg.get_int("congestion.srp_speculative_limit"));
}

void Lhrp::attach(ProtocolContext& net) {
  SpeculativeProtocol::attach(net);
  // Rescued packets travel the recovery lane to their NIC without passing the
  // last-hop switch: its scheduler would neither see nor grant them.
  if (net.settings().deadlock_recovery)
    throw ConfigError("routing.deadlock",
                      "\"recovery\" is not modelled with congestion.protocol = \"lhrp\" (the recovery lane bypasses "
                      "the last-hop reservation scheduler); use \"avoidance\"");
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
  return j;
}

ProtocolEntry lhrp_protocol_entry() {
  return ProtocolEntry{
      "lhrp",
      "Last-Hop Reservation Protocol (003): speculative first, dropped only at the last-hop switch above "
      "the threshold, NACK with a retransmission time from the switch's reservation scheduler",
      {speculative_acks_param(),
       int_param("congestion.lhrp_threshold", 1000,
                 "flits queued at the last-hop switch for an endpoint at which "
                 "its speculative packets are dropped",
                 1, 65535),
       bool_param("congestion.lhrp_strict", false, "drop only above the threshold (003 3.2) instead of at it (6.3)"),
       int_param("congestion.lhrp_fabric_timeout", 0,
                 "fabric drop (003 6.1): speculative packets queued this many "
                 "cycles are dropped before the last hop, NACKed without a time; 0 = off (6.1 uses 1000)",
                 0),
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
