#include "core/packet_ledger.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/sim_error.h"

namespace ccsim {

PacketLedger::MessageRef PacketLedger::open_message(const MessageRequest& req, bool measured, Cycle now) {
  const uint64_t id = next_message_id_++;
  if (req.packets == 1 && req.tag < 0) return {id, kNoRecord};
  uint32_t slot;
  if (free_message_slots_.empty()) {
    slot = static_cast<uint32_t>(messages_.size());
    messages_.push_back({});
  } else {
    slot = free_message_slots_.back();
    free_message_slots_.pop_back();
  }
  messages_[slot] = Message{id, req.packets, req.traffic_class, measured, now, req.tag};
  return {id, slot};
}

Packet* PacketLedger::new_data(MessageRef msg, int src, const MessageRequest& req, bool measured, Cycle now) {
  Packet* p = pool_.get();
  p->id = next_packet_id_++;
  p->message_id = msg.id;
  p->message_slot = msg.slot;
  p->src = src;
  p->dst = req.dst;
  p->size = req.packet_size;
  p->message_packets = req.packets;
  p->traffic_class = req.traffic_class;
  p->created = now;
  p->measured = measured;
  ++packets_created_;
  if (measured) ++measured_outstanding_;
  if (delivered_.size() <= p->id) delivered_.resize(std::max<size_t>(1024, delivered_.size() * 2), 0);
  return p;
}

Packet* PacketLedger::new_control(PacketKind kind, int src, int dst, int vc_class, const Packet& ref, Cycle now) {
  Packet* p = pool_.get();
  p->id = next_packet_id_++;
  p->kind = kind;
  p->src = src;
  p->dst = dst;
  p->size = 1;
  p->vc_class = static_cast<uint8_t>(vc_class);
  p->ref = ref.id;
  p->message_id = ref.message_id;
  p->created = now;
  ++packets_created_;
  if (delivered_.size() <= p->id) delivered_.resize(std::max<size_t>(1024, delivered_.size() * 2), 0);
  return p;
}

void PacketLedger::delivered(const Packet& p, int node, Cycle now) {
  if (p.dst != node) throw SimError(fmt::format("packet {} for node {} delivered to node {}", p.id, p.dst, node));
  if (delivered_[p.id]) throw SimError(fmt::format("packet {} delivered twice (cycle {})", p.id, now));
  delivered_[p.id] = 1;
  ++packets_delivered_;
}

bool PacketLedger::completes_message(const Packet& p, Message& done) {
  if (p.measured) --measured_outstanding_;
  if (p.message_slot == kNoRecord) {  // its one packet: made in the cycle the message opened
    done = Message{p.message_id, 0, p.traffic_class, p.measured, p.created, -1};
    return true;
  }
  Message& m = messages_[p.message_slot];
  if (--m.remaining != 0) return false;
  done = m;
  free_message_slots_.push_back(p.message_slot);
  return true;
}

void PacketLedger::hold(Packet* p, int router, Cycle now) {
  ++drops_;
  held_[p->id] = {p, router, now};
}

Packet* PacketLedger::reclaim(uint64_t id) {
  auto it = held_.find(id);
  if (it == held_.end()) throw SimError(fmt::format("packet {} taken back, but it was not dropped", id));
  Packet* p = it->second.p;
  held_.erase(it);
  return p;
}

const Packet& PacketLedger::held(uint64_t id) const {
  auto it = held_.find(id);
  if (it == held_.end()) throw SimError(fmt::format("packet {} is not held", id));
  return *it->second.p;
}

void PacketLedger::for_each_held(const std::function<void(const Packet&, const std::string&)>& f) const {
  for (auto& [id, h] : held_) f(*h.p, fmt::format("held after its drop at router {} in cycle {}", h.router, h.at));
}

std::string PacketLedger::describe(const Packet& p) {
  return fmt::format("packet {} ({}, node {} -> node {}, message {}, created in cycle {})", p.id,
                     packet_kind_name(p.kind), p.src, p.dst, p.message_id, p.created);
}

void PacketLedger::check(const PacketPlaces& places, const AnsweredPackets& answered,
                         const std::function<bool(uint64_t)>& holds_for_resend) const {
  const int64_t present = static_cast<int64_t>(places.size());
  uint64_t twice = UINT64_MAX;  // the lowest id delivered but still present: the same error for any map order
  for (auto& [id, place] : places)
    if (delivered_[id]) twice = std::min(twice, id);
  if (twice != UINT64_MAX)
    throw SimError(fmt::format("packet {} delivered but still in the network ({})", twice, places.at(twice)));
  pool_.for_each_live([&](const Packet* p) {
    if (!places.count(p->id))
      throw SimError(
          fmt::format("{} is lost: not delivered, in no buffer, on no link, queued at no NIC, not held "
                      "after a drop (last at router {})",
                      describe(*p), p->last_router));
  });
  // A dropped packet waits for a control packet about it to reach its source,
  // or for the protocol's resend: with neither, it would never arrive.
  for (auto& [id, h] : held_)
    if (!answered.count(id) && !holds_for_resend(id))
      throw SimError(
          fmt::format("{} was dropped at router {} in cycle {}, but no control packet about it is in "
                      "flight and the protocol does not hold it for a resend: it would never arrive",
                      describe(*h.p), h.router, h.at));
  if (packets_created_ != packets_delivered_ + present)
    throw SimError(fmt::format("packet conservation: created {} != delivered {} + in network/queues {}",
                               packets_created_, packets_delivered_, present));
}

std::string PacketLedger::describe_waiting(const PacketPlaces& places, int64_t& waiting) const {
  // Name a packet that waits in a component (a NIC, a router) rather than one
  // held after a drop: the component is the one nothing wakes.
  waiting = 0;
  std::string first, dropped;
  pool_.for_each_live([&](const Packet* p) {
    ++waiting;
    const auto place = places.find(p->id);
    std::string& slot = held_.count(p->id) ? dropped : first;
    if (slot.empty()) slot = describe(*p) + (place == places.end() ? ", lost" : ", " + place->second);
  });
  return first.empty() ? dropped : first;
}

}  // namespace ccsim
