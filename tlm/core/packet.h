// Packets and flits. A message (what the application sends) is segmented into
// packets; packets travel as flits. Flits on links are small handles to the
// packet they belong to; buffers count flits per packet rather than copying them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <new>
#include <string>
#include <vector>

#include "core/types.h"

namespace ccsim {

// Data packets carry messages; the others are 1-flit control packets of the
// congestion-control protocols (consumed by the NIC or switch they reach).
// Kinds are open: kind 0 is data, and a protocol declares each kind it sends
// by name (declare_packet_kind("ack")); the results give every declared
// kind's share of the ejection channels under that name.
using PacketKind = uint8_t;
constexpr PacketKind kDataPacket = 0;
// The kind named `name`, declared on first use (use it to initialize a constant).
PacketKind declare_packet_kind(const std::string& name);
// Every declared kind's name, by kind.
const std::vector<std::string>& packet_kind_names();
inline const std::string& packet_kind_name(PacketKind k) { return packet_kind_names().at(k); }

// What a router reads and writes per hop (routing state, destination, the flags the hot loops test) comes
// first: with the packet on a cache line of its own, a hop misses on one line, and the line the input
// port's store of last_router fetches is the one routing reads next.
struct alignas(64) Packet {
  // ---- per hop (first cache line)
  int32_t src = -1, dst = -1;  // node ids
  // Routing state, owned by the routing function.
  int32_t intermediate = -1;        // intermediate group/router of non-minimal routes
  int32_t last_router = -1;         // the router its head reached last (end-of-run accounting)
  uint8_t phase = 0;                // routing phase (0: towards intermediate, 1: towards dst)
  uint8_t global_hops = 0;          // global channels taken
  uint8_t local_hops_in_group = 0;  // local channels taken in the current group
  uint8_t hops = 0;                 // router-to-router channels taken
  bool decided = false;             // adaptive decision taken
  bool misrouted = false;           // took a non-minimal path
  // Set by congestion control (packets it holds back): adaptive routing
  // functions must route it minimally. Kept across resends.
  bool minimal_only = false;
  // OLM's VC ladder (routing.vc_scheme = "opportunistic"): position of the last hop + 1, 0 before the first.
  uint8_t vc_rung = 0;
  uint8_t vc_class = 0;  // priority class of VCs it travels on (data, control, ...)
  PacketKind kind = kDataPacket;
  bool traced = false;    // its life goes into the packet trace (sim.trace)
  bool measured = false;  // created inside the measurement window
  int32_t size = 1;       // flits
  // Cycles its head has waited in switch queues beyond the pipeline (the
  // waiting time of protocols that drop waiting packets); kept only for them.
  int32_t queued = 0;
  // The routing state before the router it waits at routed it: an algorithm
  // that routes a blocked packet again (routing.reevaluate) saves it before
  // routing and restores it before routing again.
  struct RouteUndo {
    uint8_t phase, global_hops, local_hops_in_group, hops, vc_rung;
    bool misrouted;
  } route_undo{};
  int16_t traffic_class = 0;  // index of the [[traffic.class]] that generated it
  // Congestion-control state (marks, notification bits, protocol specific flags).
  uint32_t cc_flags = 0;
  int64_t cc_value = 0;

  // ---- per packet (second cache line)
  uint64_t id = 0;  // unique per run; copies made by retransmission keep it
  uint64_t message_id = 0;
  uint32_t message_slot = 0;    // the network's reassembly record (PacketLedger::kNoRecord: none)
  int32_t message_packets = 1;  // packets of its message (all of `size` flits)
  Cycle created = 0;            // message entered the source queue
  Cycle injected = 0;           // head flit left the source NIC
  uint64_t ref = 0;             // control packets: id of the data packet they answer (message_id: its message)
  bool in_use = false;          // handed out by the pool

  // Forget the route taken (a dropped packet is sent again from its source).
  void reset_route() {
    intermediate = -1;
    phase = global_hops = local_hops_in_group = hops = vc_rung = 0;
    decided = misrouted = false;
    queued = 0;
  }
  void save_route() { route_undo = {phase, global_hops, local_hops_in_group, hops, vc_rung, misrouted}; }
  void restore_route() {
    phase = route_undo.phase;
    global_hops = route_undo.global_hops;
    local_hops_in_group = route_undo.local_hops_in_group;
    hops = route_undo.hops;
    vc_rung = route_undo.vc_rung;
    misrouted = route_undo.misrouted;
  }
};

static_assert(offsetof(Packet, cc_value) + sizeof(int64_t) <= 64, "a packet's per-hop fields fit its first cache line");

struct Flit {
  Packet* pkt = nullptr;
  uint16_t vc = 0;
  bool head = false;
  bool tail = false;
  // Copies of the packet's, so that a router takes a flit in without touching the packet.
  uint16_t size = 1;
  uint8_t vc_class = 0;
};

// Recycles packet objects: the hot path allocates nothing once warmed up.
class PacketPool {
 public:
  Packet* get() {
    if (free_.empty()) {
      chunks_.emplace_back(kChunk);
      for (auto& p : chunks_.back()) free_.push_back(&p);
    }
    Packet* p = free_.back();
    free_.pop_back();
    new (p) Packet{};  // in place: no temporary to zero and copy
    p->in_use = true;
    ++live_;
    return p;
  }
  void put(Packet* p) {
    p->in_use = false;
    free_.push_back(p);
    --live_;
  }
  int64_t live() const { return live_; }
  // Every packet handed out and not yet put back.
  template <typename F>
  void for_each_live(F&& f) const {
    for (auto& chunk : chunks_)
      for (auto& p : chunk)
        if (p.in_use) f(&p);
  }

 private:
  static constexpr size_t kChunk = 4096;
  std::vector<std::vector<Packet>> chunks_;
  std::vector<Packet*> free_;
  int64_t live_ = 0;
};

}  // namespace ccsim
