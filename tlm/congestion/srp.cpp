#include "congestion/srp.h"

#include "congestion/protocol_context.h"
#include "registry.h"

namespace ccsim {

SrpParams SrpParams::from_config(const Config& c, bool smsrp) {
  SrpParams p;
  p.smsrp = smsrp;
  const bool cbcm = c.get_string("congestion.srp_preset") == "cbcm";
  p.timeout = cbcm ? 2000 : 1000;
  p.min_packets = cbcm ? 4 : 0;
  if (c.get_int("congestion.srp_timeout") > 0) p.timeout = c.get_int("congestion.srp_timeout");
  if (c.get_int("congestion.srp_min_packets") >= 0)
    p.min_packets = static_cast<int>(c.get_int("congestion.srp_min_packets"));
  p.overhead = c.get_float("congestion.srp_overhead");
  p.speculative_limit =
      static_cast<int>(c.get_int(smsrp ? "congestion.smsrp_speculative_limit" : "congestion.srp_speculative_limit"));
  if (!smsrp) p.limit_per_source = c.get_string("congestion.srp_speculative_scope") == "source";
  const std::string acks = c.get_string("congestion.srp_acks");
  p.ack_all = acks == "preset" ? !cbcm : acks == "all";
  return p;
}

void Srp::attach(ProtocolContext& net) {
  SpeculativeProtocol::attach(net);
  blocks::LastHopScheduler::Config cfg;
  cfg.num_endpoints = 1;
  endpoints_.assign(net.num_nodes(), cfg, net.hardware(), "nic");
}

Cycle Srp::grant_time(NicView& nic, const Packet& res, Cycle now) {
  const uint32_t booked = booked_cycles(res, p_.overhead);
  return static_cast<Cycle>(endpoints_.at(nic.id(), now).reserve(0, booked, static_cast<uint64_t>(now)));
}

nlohmann::json Srp::stats() const {
  nlohmann::json j = SpeculativeProtocol::stats();
  j["timeout"] = p_.timeout;
  j["min_packets"] = p_.min_packets;
  // SMSRP without a limit reports no limit fields, as before it could have one.
  if (!p_.smsrp || p_.speculative_limit > 0) add_limit_stats(j);
  return j;
}

namespace {
ProtocolEntry speculative_entry(const std::string& name, const std::string& doc) {
  const bool smsrp = name == "smsrp";
  return {name,
          doc,
          {speculative_acks_param(),
           string_param("congestion.srp_preset", "lhrp",
                        "parameter set: lhrp (003: 1 us timeout, every message "
                        "reserved) or cbcm (000: 2000 cycles, messages under 4 packets skip it)",
                        {"lhrp", "cbcm"}),
           int_param("congestion.srp_timeout", 0,
                     "queuing cycles after which a switch drops a speculative packet; "
                     "0 = preset (1000 / 2000)",
                     0),
           float_param("congestion.srp_overhead", 0.05,
                       "reservation overhead adjustment: a reservation books "
                       "size * (1 + this) cycles of the ejection channel (000)",
                       0, 10),
           int_param("congestion.srp_min_packets", -1,
                     "messages with fewer packets skip the protocol; -1 = preset "
                     "(0 / 4)",
                     -1),
           string_param("congestion.srp_acks", "preset",
                        "which data packets the destination ACKs: all (003) or the speculative ones "
                        "(non-speculative packets are never dropped); preset = all / speculative",
                        {"preset", "all", "speculative"})},
          [smsrp](const Config& c) { return std::make_unique<Srp>(c, SrpParams::from_config(c, smsrp)); }};
}
}  // namespace

ProtocolEntry srp_protocol_entry() {
  ProtocolEntry e =
      speculative_entry("srp",
                        "Speculative Reservation Protocol (003 2.2, 000 III-B): a reservation with every "
                        "message, speculative packets until the granted time, dropped after a queuing timeout");
  e.params.push_back(srp_speculative_limit_param(""));
  e.params.push_back(srp_speculative_scope_param(""));
  return e;
}

// SMSRP sends every message speculatively first (003 3.1): by default no speculation limit.
ProtocolEntry smsrp_protocol_entry() {
  ProtocolEntry e = speculative_entry("smsrp",
                                      "Small-Message SRP (003 3.1): speculative first; a drop's NACK starts the "
                                      "reservation");
  e.params.push_back(int_param("congestion.smsrp_speculative_limit", 0,
                               "messages per destination a source may have in speculative flight, each until its "
                               "packets are all ACKed or NACKed; a message beyond it waits at the source; 0 = no "
                               "limit (003 3.1 sends every message speculatively)",
                               0, 1 << 20));
  return e;
}

}  // namespace ccsim
