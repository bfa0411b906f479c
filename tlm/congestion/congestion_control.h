// Congestion control: one object per network with hooks at the source NIC, in
// every switch and at the destination NIC. A protocol also declares the
// priority classes of VCs it needs (data, ACK, control, speculative, ...);
// routers arbitrate classes by priority and give each class its own VCs.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "congestion/protocol_context.h"
#include "core/packet.h"
#include "core/types.h"
#include "hw/selection.h"

namespace ccsim {

// The ACK of a delivered data packet (003's baseline, ECN's BECN carrier, the speculative protocols).
inline const PacketKind kAckPacket = declare_packet_kind("ack");

struct VcClass {
  std::string name;
  int priority = 0;  // higher wins in VC and switch allocation
};

class CongestionControl {
 public:
  virtual ~CongestionControl() = default;
  // Called once the network is built; control packets are created through it.
  virtual void attach(ProtocolContext& net) { net_ = &net; }
  // Class 0 is always the data class.
  virtual std::vector<VcClass> vc_classes() const { return {{"data", 0}}; }
  // Source: may the NIC start this packet now? (rate limits, tokens, gates;
  // a protocol may also choose the packet's VC class here, just before it goes)
  virtual bool may_inject(NicView&, Packet&, Cycle) { return true; }
  // Source: the packet's head is about to leave the NIC.
  virtual void on_inject(NicView&, Packet&, Cycle) {}
  // Switch: the packet's head leaves input (`in_port`, `in_vc`) of `router`
  // for `out_port`.
  virtual void on_switch_forward(SwitchView&, Packet&, int /*in_port*/, int /*in_vc*/, int /*out_port*/, Cycle) {}
  // Source: a data packet was just created (choose its VC class, flags).
  virtual void on_create(Packet&) {}
  // Switch: a packet's head arrives at input `in_port` of `router`; true drops
  // the packet (its flits are discarded; the protocol sends any NACK).
  virtual bool on_switch_arrival(SwitchView&, Packet&, int /*in_port*/, Cycle) { return false; }
  // Switch: protocols that drop packets waiting in switch queues (SRP's fabric
  // drop) return true. Only then do routers keep Packet::queued (the cycles a
  // head waited in switch queues beyond the pipeline) and ask drop_waiting
  // about every front packet of an input VC that waits for an output VC.
  virtual bool drops_waiting_packets() const { return false; }
  // True drops `p`, whose head has waited `waited` cycles in switch queues, at
  // switch `s` now; the network then calls on_drop.
  virtual bool drop_waiting(SwitchView& /*s*/, const Packet& /*p*/, Cycle /*waited*/) { return false; }
  // A packet dropped at `router` (all its flits discarded), or a control
  // packet consumed there (on_switch_arrival returned true for it).
  virtual void on_drop(SwitchView&, Packet&, Cycle) {}
  // A flit of `p` left the network at its destination.
  virtual void on_eject(const Packet&, Cycle) {}
  // Destination: a data packet's tail reached its NIC.
  virtual void on_deliver(NicView&, Packet&, Cycle) {}
  // A control packet (ACK, NACK, ...) reached the NIC it was sent to.
  virtual void on_control(NicView&, Packet&, Cycle) {}
  // True while the protocol holds dropped packet `id` for its source, to
  // resend it on a later event (a grant): the end-of-run accounting asks it
  // about every dropped packet whose NACK is no longer in flight.
  virtual bool holds_for_resend(uint64_t /*id*/) const { return false; }
  // Switch: `router` finished VC allocation in cycle `now`; its requests of
  // this cycle are listed by Router::for_each_request (CBCM's contention degree).
  virtual void on_vc_allocation(SwitchView&, Cycle) {}
  // on_vc_allocation is called only when this is true (a virtual call per busy router cycle).
  virtual bool has_allocation_hook() const { return false; }
  // Switch hooks cost a virtual call per packet-hop; protocols without any skip them.
  virtual bool has_switch_hook() const { return false; }
  // on_switch_arrival and on_eject are called only when this is true.
  virtual bool has_arrival_hook() const { return false; }
  // True when a source hook reads the state of a switch (ALO's free VCs):
  // NICs then need their router's state of the same cycle, so routers do not
  // step apart from them (sim.threads).
  virtual bool sources_read_switches() const { return false; }
  // False when may_inject and on_inject do nothing: the NICs' injections then touch only
  // their own state and step on several threads (sim.threads; parallel_nics.h).
  virtual bool acts_at_injection() const { return true; }
  // The protocol's counters for the results ("congestion").
  virtual nlohmann::json stats() const { return nlohmann::json::object(); }
  // The hardware blocks (tlm/hw/) this protocol runs, for the results ("hardware").
  virtual std::vector<hw::Block> hardware_blocks() const { return {}; }

 protected:
  // Destination NIC `at` returns a 1-flit ACK for `data` on VC class `vc_class`.
  void send_ack(NicView& at, const Packet& data, int vc_class, uint32_t flags, Cycle now);

  ProtocolContext* net_ = nullptr;
};

}  // namespace ccsim
