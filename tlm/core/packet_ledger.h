// Every packet of a run from its creation to its delivery, exactly once: ids,
// the packet pool, messages in reassembly, packets held after a drop, and the
// end-of-run accounting. The network calls the mechanisms' hooks around it;
// the ledger itself knows no mechanism.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/message.h"
#include "core/packet.h"
#include "core/types.h"

namespace ccsim {

// Where each packet still in the run is, by id: only packets present, so that
// the end-of-run check costs memory for them, not for every id ever given.
using PacketPlaces = std::unordered_map<uint64_t, std::string>;
// Ids of the packets a control packet in flight answers.
using AnsweredPackets = std::unordered_set<uint64_t>;

class PacketLedger {
 public:
  // A message enters its source queue: its id, and its reassembly slot. A message of one
  // packet with no tag keeps no record (kNoRecord): its packet carries all of it, and its
  // delivery reads nothing else (the record would be a cache miss per message).
  static constexpr uint32_t kNoRecord = UINT32_MAX;
  struct MessageRef {
    uint64_t id;
    uint32_t slot;
  };
  MessageRef open_message(const MessageRequest& req, bool measured, Cycle now);
  // Packet of message `msg`, from node `src`.
  Packet* new_data(MessageRef msg, int src, const MessageRequest& req, bool measured, Cycle now);
  // A 1-flit control packet from node `src` to node `dst` on VC class
  // `vc_class`, answering packet `ref`.
  Packet* new_control(PacketKind kind, int src, int dst, int vc_class, const Packet& ref, Cycle now);

  // `p` reached node `node`: throws unless it is its destination and its first delivery.
  void delivered(const Packet& p, int node, Cycle now);
  // Data packet `p` was delivered: true (with its message's creation cycle,
  // class and whether it was measured) when it completes its message.
  struct Message {
    uint64_t id;
    int32_t remaining;
    int16_t traffic_class;
    bool measured;
    Cycle created;
    int64_t tag;  // MessageRequest::tag
  };
  bool completes_message(const Packet& p, Message& done);
  // A control packet consumed where it was dropped: it counts as delivered.
  void consumed(const Packet& p) { delivered_[p.id] = 1, ++packets_delivered_; }
  // Returns a delivered (or consumed) packet to the pool.
  void release(Packet* p) { pool_.put(p); }

  // A data packet dropped at `router`: held until its source takes it back.
  void hold(Packet* p, int router, Cycle now);
  Packet* reclaim(uint64_t id);
  const Packet& held(uint64_t id) const;

  int64_t created() const { return packets_created_; }
  int64_t delivered_count() const { return packets_delivered_; }
  int64_t drops() const { return drops_; }
  int64_t measured_outstanding() const { return measured_outstanding_; }
  uint64_t next_id() const { return next_packet_id_; }

  // End-of-run accounting. `places` says where each undelivered packet is
  // (absent: nowhere seen); `holds_for_resend(id)` whether the protocol
  // holds dropped packet `id` for a resend. Throws SimError naming the first
  // packet that is delivered but still present, lost, or dropped with nothing
  // to bring it back.
  void check(const PacketPlaces& places, const AnsweredPackets& answered,
             const std::function<bool(uint64_t)>& holds_for_resend) const;
  // Places of the packets held after a drop.
  void for_each_held(const std::function<void(const Packet&, const std::string&)>& f) const;
  // A stall: a description of a waiting packet (one in a component, not
  // held after a drop, when there is one) and the number undelivered.
  std::string describe_waiting(const PacketPlaces& places, int64_t& waiting) const;
  static std::string describe(const Packet& p);

 private:
  struct Held {
    Packet* p;
    int router;
    Cycle at;
  };
  PacketPool pool_;
  uint64_t next_packet_id_ = 0, next_message_id_ = 0;
  std::vector<Message> messages_;  // in reassembly, by slot
  std::vector<uint32_t> free_message_slots_;
  std::vector<uint8_t> delivered_;  // by packet id
  int64_t packets_created_ = 0, packets_delivered_ = 0, measured_outstanding_ = 0, drops_ = 0;
  std::unordered_map<uint64_t, Held> held_;  // by id, until reclaimed
};

}  // namespace ccsim
