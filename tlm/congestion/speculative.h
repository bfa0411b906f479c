// What the speculative protocols (SRP, SMSRP, LHRP; 003 sections 2.2 and 3)
// share: a low-priority speculative VC class that switches may drop, a NACK
// from the dropping switch, an ACK for every delivered data packet (or for the
// speculative ones only), and the source's per-message state:
//
//   Speculative    packets go on the speculative class;
//   AwaitingGrant  a reservation is out: nothing more of the message goes, the
//                  dropped packets wait (held by the network) for the grant;
//   Granted        from the granted time on, the rest of the message and every
//                  dropped packet go on the data class, never dropped.
//
// When a message sends its reservation (first, after a NACK, or never) is what
// tells the protocols apart: reservation_policy(). A NACK that carries a time
// (LHRP's last-hop drop) needs no handshake: the packet is resent at that time.
//
// SRP's speculation limit (000 III-B: "SRP restricts the number of speculative
// packets that can be injected into the network (e.g., up to 1 message per
// destination from each source)"; speculative_limit_, ReserveFirst messages
// only): a source may have that many messages to one destination in
// speculative flight. A message counts from its first packet until it can send
// nothing more speculatively (a NACK or its grant stopped it, or it is fully
// ACKed) and every speculative packet it sent has been ACKed or NACKed: until
// then its speculative packets may still be in the network, and the source
// learns that they left it only by their ACK or NACK (the public BookSim SRP
// code likewise starts a flow's next reservation only once its count of
// outstanding speculative flits is back to 0). Not until the grant time: a
// grant far in the future (a congested destination) would hold the slot long
// after the speculative packets were dropped. A message beyond the limit sends
// its reservation, never goes speculatively, and goes on the data class at its
// granted time. SMSRP's and LHRP's limits (ours; 003 gives none) count
// messages the same way; a message beyond them waits at its source, unsent,
// and an LHRP message can send nothing more speculatively once each of its
// packets has gone (a last-hop NACK resends it at its time, non-speculatively).
#pragma once
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "congestion/congestion_control.h"
#include "core/params.h"

namespace ccsim {

// The control packets of the handshake (ACKs are kAckPacket).
inline const PacketKind kNackPacket = declare_packet_kind("nack");
inline const PacketKind kReservationPacket = declare_packet_kind("reservation");
inline const PacketKind kGrantPacket = declare_packet_kind("grant");

class SpeculativeProtocol : public CongestionControl {
 public:
  // VC classes; reservation and grant exist only with a handshake (separate
  // high-priority classes "to prevent deadlock during the reservation handshake").
  static constexpr int kDataClass = 0, kAckClass = 1, kSpeculativeClass = 2, kReservationClass = 3, kGrantClass = 4;

  // fabric_timeout: queuing cycles after which a speculative packet is dropped
  // anywhere in the fabric (0: never); handshake: reservation/grant classes exist.
  SpeculativeProtocol(const Config& cfg, Cycle fabric_timeout, bool handshake);

  std::vector<VcClass> vc_classes() const override;
  bool drops_waiting_packets() const override { return fabric_timeout_ > 0; }
  // Speculative packets that waited longer than the fabric timeout, where
  // may_drop_in_fabric agrees.
  bool drop_waiting(SwitchView& s, const Packet& p, Cycle waited) override {
    return p.vc_class == kSpeculativeClass && waited > fabric_timeout_ && may_drop_in_fabric(s, p);
  }
  bool may_inject(NicView& nic, Packet& p, Cycle now) override;
  void on_inject(NicView& nic, Packet& p, Cycle now) override;
  void on_drop(SwitchView& r, Packet& p, Cycle now) override;
  void on_deliver(NicView& nic, Packet& p, Cycle now) override {
    const bool speculative = p.vc_class == kSpeculativeClass;
    if (ack_all_ || speculative) send_ack(nic, p, kAckClass, speculative ? kSpeculativeAck : 0, now);
  }
  void on_control(NicView& nic, Packet& c, Cycle now) override;
  bool holds_for_resend(uint64_t id) const override;
  nlohmann::json stats() const override;

 protected:
  enum class Policy {
    Plain,         // no protocol: the data class, never dropped (SRP's small messages)
    ReserveFirst,  // SRP: reservation with the first packet, speculative meanwhile
    OnNack,        // SMSRP: speculative; a NACK triggers the reservation
    Retry,         // LHRP: speculative; a reservation-less NACK resends speculatively,
                   // `coalesce_after` of them in a row trigger a reservation
  };
  virtual Policy reservation_policy(const Packet& first) const = 0;
  // A reservation reached the destination NIC `nic` (SRP, SMSRP): the grant time.
  virtual Cycle grant_time(NicView& nic, const Packet& reservation, Cycle now);

  // Packet flags. kResend: held at the source until cc_value (the granted
  // time). kTimedDrop: the dropping switch put a retransmission time in cc_value.
  static constexpr uint32_t kResend = 1, kTimedDrop = 2;
  // ACK flag: the acknowledged packet travelled speculatively.
  static constexpr uint32_t kSpeculativeAck = 1;

  // Ejection cycles a reservation books: its flits * (1 + overhead), rounded up.
  static uint32_t booked_cycles(const Packet& reservation, double overhead);
  // Whether switch `s` may drop a speculative packet that timed out there.
  virtual bool may_drop_in_fabric(SwitchView& /*s*/, const Packet& /*p*/) { return true; }
  // Switch `r` answers with a control packet (NACK, grant) from its NIC port.
  void send_from_switch(SwitchView& r, Packet* c, Cycle now);
  // The speculation limit's counters.
  void add_limit_stats(nlohmann::json& j) const;
  int32_t max_speculative_in_flight() const { return max_in_flight_; }

  // Every data packet is ACKed (003), or only the speculative ones (ack_all_ false; the
  // spec's reading of 000): a non-speculative packet cannot be dropped, so its source counts
  // it as delivered when it leaves.
  bool ack_all_ = true;
  int coalesce_after_ = 2;
  // ReserveFirst (SRP) or OnNack (SMSRP) messages per (source, destination) in speculative flight; 0: any.
  int speculative_limit_ = 0;
  // The same for Retry (LHRP) messages.
  int retry_limit_ = 0;
  int limit_of(Policy policy) const { return policy == Policy::Retry ? retry_limit_ : speculative_limit_; }
  // SRP's limit counts a source's messages to all destinations together (srp_speculative_scope).
  bool limit_per_source_ = false;
  int64_t nacks_ = 0, timed_nacks_ = 0, reservations_ = 0, grants_ = 0;
  int64_t speculative_sent_ = 0, guaranteed_sent_ = 0, fabric_drops_ = 0, last_hop_drops_ = 0;

 private:
  struct Message {
    Policy policy = Policy::Plain;
    enum class Phase : uint8_t { Speculative, AwaitingGrant, Granted } phase = Phase::Speculative;
    bool reserved = false;
    bool counted = false;                // holds one of its flow's speculation slots
    int32_t unacked = 0;                 // packets not yet acknowledged
    int32_t unsent = 0;                  // packets yet to go speculatively (counted messages)
    int32_t bare_nacks = 0;              // reservation-less NACKs in a row (Retry)
    int32_t speculative_unresolved = 0;  // speculative packets neither ACKed nor NACKed (counted messages)
    uint64_t flow = 0;                   // (source, destination) key of flows_ (counted messages)
    Cycle grant = 0;
    std::vector<uint64_t> dropped;  // packets waiting for the grant
  };
  // Per (source, destination): messages holding a speculation
  // slot, and those with speculative packets actually in flight.
  struct Flow {
    int32_t slots = 0;
    int32_t in_flight = 0;
  };
  // The key of flows_ that a message of `policy` from src to dst counts under.
  uint64_t flow_of(int src, int dst, Policy policy) const;
  void reserve(NicView& nic, const Packet& p, Message& m, Cycle now);
  void resend_guaranteed(int src, uint64_t id, Cycle at, Cycle now);
  void on_nack(NicView& nic, Packet& nack, Cycle now);
  // One more packet of message `it` is known delivered (ACKed, or sent non-speculatively
  // without ACKs); a fully delivered message is forgotten.
  void delivered(std::unordered_map<uint64_t, Message>::iterator it);
  // A speculative packet of counted message `m` was ACKed or NACKed.
  void speculative_resolved(Message& m);
  // Frees m's speculation slot once it can send nothing more speculatively and
  // none of its speculative packets is unresolved (or `finished`: fully ACKed).
  void release_slot(Message& m, bool finished);

  Cycle fabric_timeout_;
  bool handshake_;
  std::unordered_map<uint64_t, Message> messages_;  // by message id, at their sources
  // Every Message::dropped id: the end-of-run check asks about each (a scan of
  // messages_ per id made that check quadratic, minutes at 1056 nodes).
  std::unordered_set<uint64_t> awaiting_grant_;
  std::unordered_map<uint64_t, Flow> flows_;  // by flow_of(), while not empty
  int64_t speculative_limited_ = 0;           // messages the limit kept off the speculative class
  int32_t max_in_flight_ = 0;                 // most messages of one flow in speculative flight at once
};

// congestion.acks of the speculative protocols: they track each message by its
// ACKs; the key is accepted so one config can sweep over every protocol.
ParamSpec speculative_acks_param();
// congestion.srp_speculative_limit: SRP messages per destination a source may
// have in speculative flight (srp, and the SRP messages of lhrp's combined mode).
ParamSpec srp_speculative_limit_param(const std::string& doc_prefix);
// congestion.srp_speculative_scope: per destination (000) or per source.
ParamSpec srp_speculative_scope_param(const std::string& doc_prefix);

}  // namespace ccsim
