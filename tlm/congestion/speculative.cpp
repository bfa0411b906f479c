#include "congestion/speculative.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "congestion/protocol_context.h"
#include "core/sim_error.h"

namespace ccsim {

SpeculativeProtocol::SpeculativeProtocol(const Config& cfg, Cycle fabric_timeout, bool handshake)
    : fabric_timeout_(fabric_timeout), handshake_(handshake) {
  if (!cfg.get_bool("congestion.acks"))
    throw ConfigError("congestion.acks", fmt::format("must be true with protocol \"{}\": sources track messages by "
                                                     "their ACKs",
                                                     cfg.get_string("congestion.protocol")));
}

std::vector<VcClass> SpeculativeProtocol::vc_classes() const {
  std::vector<VcClass> c = {{"data", 1}, {"ack", 2}, {"speculative", 0}};
  if (handshake_) c.insert(c.end(), {{"reservation", 2}, {"grant", 2}});
  return c;
}

bool SpeculativeProtocol::may_inject(NicView& nic, Packet& p, Cycle now) {
  if (p.cc_flags & kResend) return now >= p.cc_value;
  auto it = messages_.find(p.message_id);
  if (it == messages_.end()) {  // the message's first packet
    const Policy policy = reservation_policy(p);
    if (policy == Policy::Plain) {
      p.vc_class = kDataClass;
      return true;
    }
    const uint64_t flow = flow_of(nic.id(), p.dst, policy);
    const int limit = limit_of(policy);
    if (policy != Policy::ReserveFirst && limit > 0) {
      // SMSRP's and LHRP's limit: a message beyond it waits at the source, unsent, for a slot.
      auto f = flows_.find(flow);
      if (f != flows_.end() && f->second.slots >= limit) return false;
    }
    it = messages_.emplace(p.message_id, Message{}).first;
    Message& m = it->second;
    m.policy = policy;
    m.unacked = p.message_packets;
    m.unsent = p.message_packets;
    if (policy == Policy::ReserveFirst) {
      reserve(nic, p, m, now);
      m.flow = flow;
      Flow& f = flows_[m.flow];
      if (speculative_limit_ > 0 && f.slots >= speculative_limit_) {
        // Beyond the limit: never speculative; it goes at its granted time.
        m.phase = Message::Phase::AwaitingGrant;
        ++speculative_limited_;
        return false;
      }
      ++f.slots;
      m.counted = true;
    } else if (limit > 0) {
      m.flow = flow;
      ++flows_[m.flow].slots;
      m.counted = true;
    }
  }
  Message& m = it->second;
  switch (m.phase) {
    case Message::Phase::Speculative:
      p.vc_class = kSpeculativeClass;
      return true;
    case Message::Phase::AwaitingGrant:
      return false;
    case Message::Phase::Granted:
      p.vc_class = kDataClass;
      return now >= m.grant;
  }
  return false;
}

void SpeculativeProtocol::on_inject(NicView&, Packet& p, Cycle) {
  if (p.kind != kDataPacket) return;
  if (p.vc_class != kSpeculativeClass) {
    ++guaranteed_sent_;
    if (!ack_all_) {
      auto it = messages_.find(p.message_id);
      if (it != messages_.end()) delivered(it);
    }
    return;
  }
  ++speculative_sent_;
  auto it = messages_.find(p.message_id);
  if (it == messages_.end() || !it->second.counted) return;
  --it->second.unsent;
  if (it->second.speculative_unresolved++ == 0) {
    Flow& f = flows_[it->second.flow];
    max_in_flight_ = std::max(max_in_flight_, ++f.in_flight);
  }
}

void SpeculativeProtocol::speculative_resolved(Message& m) {
  if (--m.speculative_unresolved == 0) --flows_[m.flow].in_flight;
}

void SpeculativeProtocol::release_slot(Message& m, bool finished) {
  if (!m.counted) return;
  // A Retry message speculates packet by packet: it may until every packet has gone.
  const bool may_speculate = m.phase == Message::Phase::Speculative && (m.policy != Policy::Retry || m.unsent > 0);
  if (!finished && (may_speculate || m.speculative_unresolved > 0)) return;
  if (finished && m.speculative_unresolved != 0)
    throw SimError(fmt::format("message of flow {} fully ACKed with {} speculative packets unresolved", m.flow,
                               m.speculative_unresolved));
  m.counted = false;
  auto it = flows_.find(m.flow);
  if (--it->second.slots == 0 && it->second.in_flight == 0) flows_.erase(it);
}

// The reservation asks for the message's unacknowledged flits; it goes to the
// destination (SRP's endpoint scheduler, or the last-hop switch that consumes it).
void SpeculativeProtocol::reserve(NicView& nic, const Packet& p, Message& m, Cycle now) {
  Packet* res = net_->new_control(kReservationPacket, nic.id(), p.dst, kReservationClass, p, now);
  res->cc_value = static_cast<int64_t>(m.unacked) * p.size;
  nic.send_control(res, now);
  m.reserved = true;
  ++reservations_;
}

uint32_t SpeculativeProtocol::booked_cycles(const Packet& res, double overhead) {
  return static_cast<uint32_t>(std::ceil(static_cast<double>(res.cc_value) * (1.0 + overhead)));
}

void SpeculativeProtocol::send_from_switch(SwitchView& r, Packet* c, Cycle now) {
  net_->switch_nic(r.id()).send_control(c, now);
}

void SpeculativeProtocol::on_drop(SwitchView& r, Packet& p, Cycle now) {
  if (p.kind != kDataPacket) return;
  if (r.id() == net_->topology().node_router(p.dst))
    ++last_hop_drops_;
  else
    ++fabric_drops_;
  Packet* nack = net_->new_control(kNackPacket, net_->switch_nic(r.id()).id(), p.src, kAckClass, p, now);
  nack->cc_value = (p.cc_flags & kTimedDrop) ? p.cc_value : -1;
  p.cc_flags &= ~kTimedDrop;
  send_from_switch(r, nack, now);
}

void SpeculativeProtocol::resend_guaranteed(int src, uint64_t id, Cycle at, Cycle now) {
  Packet* p = net_->reclaim(id);
  p->vc_class = kDataClass;
  p->cc_flags |= kResend;
  p->cc_value = at;
  net_->resend(src, p, at, now);
}

void SpeculativeProtocol::on_nack(NicView& nic, Packet& nack, Cycle now) {
  ++nacks_;
  auto it = messages_.find(nack.message_id);
  if (it == messages_.end()) throw SimError(fmt::format("NACK for packet {} of a finished message", nack.ref));
  Message& m = it->second;
  if (m.counted) speculative_resolved(m);
  if (nack.cc_value >= 0) {  // the last-hop switch reserved a time for it
    ++timed_nacks_;
    resend_guaranteed(nic.id(), nack.ref, nack.cc_value, now);
    release_slot(m, false);
    return;
  }
  if (m.phase == Message::Phase::Granted) {
    resend_guaranteed(nic.id(), nack.ref, m.grant, now);
    release_slot(m, false);
    return;
  }
  if (!m.reserved) {
    if (m.policy == Policy::Retry && ++m.bare_nacks < coalesce_after_) {
      ++m.unsent;
      net_->resend(nic.id(), net_->reclaim(nack.ref), now, now);  // speculative again
      return;
    }
    reserve(nic, net_->held(nack.ref), m, now);
  }
  m.phase = Message::Phase::AwaitingGrant;
  m.dropped.push_back(nack.ref);
  awaiting_grant_.insert(nack.ref);
  release_slot(m, false);
}

Cycle SpeculativeProtocol::grant_time(NicView& nic, const Packet& res, Cycle) {
  throw SimError(fmt::format("reservation {} reached NIC {}: this protocol grants at switches", res.id, nic.id()));
}

void SpeculativeProtocol::on_control(NicView& nic, Packet& c, Cycle now) {
  if (c.kind == kAckPacket) {
    auto it = messages_.find(c.message_id);
    if (it == messages_.end()) return;
    Message& m = it->second;
    if (m.counted && (c.cc_flags & kSpeculativeAck)) speculative_resolved(m);
    delivered(it);
  } else if (c.kind == kNackPacket) {
    on_nack(nic, c, now);
  } else if (c.kind == kReservationPacket) {
    Packet* gnt = net_->new_control(kGrantPacket, nic.id(), c.src, kGrantClass, c, now);
    gnt->cc_value = grant_time(nic, c, now);
    nic.send_control(gnt, now);
  } else if (c.kind == kGrantPacket) {
    ++grants_;
    auto it = messages_.find(c.message_id);
    if (it == messages_.end()) return;  // every packet made it speculatively
    Message& m = it->second;
    m.phase = Message::Phase::Granted;
    m.grant = c.cc_value;
    for (uint64_t id : m.dropped) {
      awaiting_grant_.erase(id);
      resend_guaranteed(nic.id(), id, m.grant, now);
    }
    m.dropped.clear();
    release_slot(m, false);
  }
}

void SpeculativeProtocol::delivered(std::unordered_map<uint64_t, Message>::iterator it) {
  Message& m = it->second;
  if (--m.unacked == 0) {
    release_slot(m, true);
    messages_.erase(it);
  } else {
    release_slot(m, false);
  }
}

bool SpeculativeProtocol::holds_for_resend(uint64_t id) const { return awaiting_grant_.count(id) != 0; }

nlohmann::json SpeculativeProtocol::stats() const {
  return {{"speculative_sent", speculative_sent_},
          {"guaranteed_sent", guaranteed_sent_},
          {"fabric_drops", fabric_drops_},
          {"last_hop_drops", last_hop_drops_},
          {"nacks", nacks_},
          {"nacks_with_time", timed_nacks_},
          {"reservations", reservations_},
          {"grants", grants_}};
}

void SpeculativeProtocol::add_limit_stats(nlohmann::json& j) const {
  j["speculative_limit"] = speculative_limit_;
  j["speculative_limited"] = speculative_limited_;
  j["max_speculative_messages_in_flight"] = max_in_flight_;
}

ParamSpec srp_speculative_limit_param(const std::string& doc_prefix) {
  return int_param("congestion.srp_speculative_limit", 1,
                   doc_prefix +
                       "messages per destination a source may have in speculative flight (000 III-B: 1), "
                       "each until its speculative packets are all ACKed or NACKed; a message beyond it goes "
                       "non-speculatively at its granted time; 0 = no limit",
                   0, 1 << 20);
}

uint64_t SpeculativeProtocol::flow_of(int src, int dst, Policy policy) const {
  // A source's one count over all destinations: a key no (source, destination) pair has.
  if (policy == Policy::ReserveFirst && limit_per_source_) return (uint64_t{1} << 63) | static_cast<uint64_t>(src);
  return static_cast<uint64_t>(src) * static_cast<uint64_t>(net_->num_nodes()) + static_cast<uint64_t>(dst);
}

ParamSpec srp_speculative_scope_param(const std::string& doc_prefix) {
  return string_param("congestion.srp_speculative_scope", "destination",
                      doc_prefix +
                          "what srp_speculative_limit counts: a source's messages to each destination (000 "
                          "III-B: \"up to 1 message per destination from each source\") or to all its "
                          "destinations together (source; ours, to show what a per-source count does)",
                      {"destination", "source"});
}

ParamSpec speculative_acks_param() {
  return bool_param("congestion.acks", true,
                    "every data packet is acknowledged (required: sources track messages "
                    "by their ACKs)");
}

}  // namespace ccsim
