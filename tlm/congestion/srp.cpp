#include "congestion/srp.h"

#include "core/network.h"

namespace ccsim {

SrpParams SrpParams::from_config(const Config& c, bool smsrp) {
  SrpParams p;
  p.smsrp = smsrp;
  const bool cbcm = c.get_string("congestion.srp_preset") == "cbcm";
  p.timeout = cbcm ? 2000 : 1000;
  p.min_packets = cbcm ? 4 : 0;
  if (c.get_int("congestion.srp_timeout") > 0) p.timeout = c.get_int("congestion.srp_timeout");
  if (c.get_int("congestion.srp_min_packets") >= 0) p.min_packets = static_cast<int>(c.get_int("congestion.srp_min_packets"));
  p.overhead = c.get_float("congestion.srp_overhead");
  return p;
}

void Srp::attach(Network& net) {
  SpeculativeProtocol::attach(net);
  blocks::LastHopScheduler::Config cfg;
  cfg.num_endpoints = 1;
  endpoints_.assign(net.num_nodes(), cfg, net.hardware(), "nic");
}

Cycle Srp::grant_time(Nic& nic, const Packet& res, Cycle now) {
  const uint32_t booked = booked_cycles(res, p_.overhead);
  return static_cast<Cycle>(endpoints_.at(nic.id(), now).reserve(0, booked, static_cast<uint64_t>(now)));
}

nlohmann::json Srp::stats() const {
  nlohmann::json j = SpeculativeProtocol::stats();
  j["timeout"] = p_.timeout;
  j["min_packets"] = p_.min_packets;
  return j;
}

}  // namespace ccsim
