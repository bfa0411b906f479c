#include "congestion/ecn.h"

#include <algorithm>

#include "congestion/protocol_context.h"
#include "registry.h"

namespace ccsim {

EcnParams EcnParams::from_config(const Config& c) {
  EcnParams p;
  if (c.get_string("congestion.ecn_preset") == "cbcm") {
    p.threshold = 0.9;
    p.increment = 400;
    p.decrement = 50;
    p.timer = 1000;
    p.max = 1500;
  }
  auto override_int = [&](const char* key, int& v) {
    if (c.get_int(key) > 0) v = static_cast<int>(c.get_int(key));
  };
  if (c.get_float("congestion.ecn_threshold") > 0) p.threshold = c.get_float("congestion.ecn_threshold");
  override_int("congestion.ecn_increment", p.increment);
  override_int("congestion.ecn_decrement", p.decrement);
  override_int("congestion.ecn_timer", p.timer);
  override_int("congestion.ecn_max", p.max);
  p.acks = c.get_bool("congestion.acks");
  return p;
}

void Ecn::attach(ProtocolContext& net) {
  CongestionControl::attach(net);
  flows_.assign(net.num_nodes(), {});
}

void Ecn::decay(Flow& f, Cycle now) const {
  if (f.ipd == 0) {
    f.last_decrement = now;
    return;
  }
  const Cycle steps = (now - f.last_decrement) / p_.timer;
  f.ipd = static_cast<int>(std::max<Cycle>(0, f.ipd - steps * p_.decrement));
  f.last_decrement += steps * p_.timer;
}

bool Ecn::may_inject(NicView& nic, Packet& p, Cycle now) {
  if (p.kind != kDataPacket) return true;
  auto& flows = flows_[nic.id()];
  auto it = flows.find(p.dst);
  if (it == flows.end() || now >= it->second.next_start) return true;
  ++gated_;
  return false;
}

void Ecn::on_inject(NicView& nic, Packet& p, Cycle now) {
  if (p.kind != kDataPacket) return;
  auto& flows = flows_[nic.id()];
  auto it = flows.find(p.dst);
  if (it == flows.end()) return;  // never notified: no delay
  Flow& f = it->second;
  decay(f, now);
  if (f.ipd == 0) {
    flows.erase(it);  // back to full rate: the NIC's own serialisation is the only gap
    return;
  }
  f.next_start = now + p.size + f.ipd;
}

void Ecn::on_switch_forward(SwitchView& r, Packet& p, int in_port, int in_vc, int, Cycle) {
  if (p.kind != kDataPacket || (p.cc_flags & kMarked)) return;
  if (r.input_flits(in_port, in_vc) >= p_.threshold * r.input_depth(in_port)) {
    p.cc_flags |= kMarked;
    ++marked_;
  }
}

void Ecn::on_deliver(NicView& nic, Packet& p, Cycle now) {
  if (p_.acks || (p.cc_flags & kMarked)) send_ack(nic, p, 1, p.cc_flags & kMarked, now);
}

void Ecn::on_control(NicView& nic, Packet& ack, Cycle now) {
  if (!(ack.cc_flags & kMarked)) return;
  ++becns_;
  Flow& f = flows_[nic.id()][ack.src];  // the ACK comes from the congested destination
  decay(f, now);
  f.ipd = std::min(f.ipd + p_.increment, p_.max);
}

int Ecn::ipd(int src, int dst, Cycle now) {
  auto& flows = flows_[src];
  auto it = flows.find(dst);
  if (it == flows.end()) return 0;
  decay(it->second, now);
  return it->second.ipd;
}

nlohmann::json Ecn::stats() const {
  return {{"marked_packets", marked_},
          {"becns", becns_},
          {"gated_injection_attempts", gated_},
          {"threshold", p_.threshold},
          {"ipd_increment", p_.increment},
          {"ipd_decrement", p_.decrement},
          {"ipd_timer", p_.timer},
          {"ipd_max", p_.max}};
}

ProtocolEntry ecn_protocol_entry() {
  return ProtocolEntry{
      "ecn",
      "InfiniBand-style ECN: switches mark packets leaving full input buffers, ACKs carry BECN, sources "
      "raise a per-destination inter-packet delay",
      {bool_param("congestion.acks", true, "ACK every data packet (003); false: only marked packets get a BECN"),
       string_param("congestion.ecn_preset", "lhrp", "parameter set: lhrp (003 Table 1) or cbcm (000 V-A)",
                    {"lhrp", "cbcm"}),
       float_param("congestion.ecn_threshold", 0,
                   "mark when the input VC buffer is at least this full "
                   "(fraction); 0 = preset (0.5 / 0.9)",
                   0, 1),
       int_param("congestion.ecn_increment", 0, "IPD increment per BECN (cycles); 0 = preset (24 / 400)", 0),
       int_param("congestion.ecn_decrement", 0, "IPD decrement per timer period (cycles); 0 = preset (24, ours / 50)",
                 0),
       int_param("congestion.ecn_timer", 0, "IPD decrement period (cycles); 0 = preset (96 / 1000)", 0),
       int_param("congestion.ecn_max", 0, "maximum IPD (cycles); 0 = preset (3048, ours / 1500)", 0)},
      [](const Config& c) { return std::make_unique<Ecn>(EcnParams::from_config(c)); }};
}

}  // namespace ccsim
