// Routing functions: one object per network, called once per packet per hop
// when the packet's head is routed. A routing function returns the output port
// and the VC slot; the router maps a slot to a set of physical VCs
// (slot_vcs(): by default slot, slot+K, slot+2K, ... below the configured VC
// count, K = vc_slots()). VC slots are how each algorithm keeps its channel
// dependency graph acyclic.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

#include "core/packet.h"
#include "core/rng.h"
#include "hw/selection.h"

namespace ccsim {

// What a routing function may ask of the router it runs in.
class RouterContext {
 public:
  virtual ~RouterContext() = default;
  virtual int router_id() const = 0;
  // Flits queued towards `port` on this router: output queue plus the
  // downstream buffer occupancy known from credits, all VCs (or the
  // downstream buffer's flits: router.occupancy).
  virtual int occupancy(int port) = 0;
  // The same figure for any router: global knowledge, used by UGAL-G.
  virtual int remote_occupancy(int router, int port) = 0;
  // True when VC allocation would give `p` an output VC of `slot` on `port`
  // now (not held by another packet, room in the output queue) and that VC's
  // downstream buffer has room for the packet (all of it under cut-through,
  // one flit under wormhole).
  virtual bool vc_available(int port, int slot, const Packet& p) = 0;
  // vc_available(), and the downstream buffer has room for the packet after the
  // flits already queued on that VC: a packet given the VC now never waits for it.
  virtual bool vc_free_now(int port, int slot, const Packet& p) { return vc_available(port, slot, p); }
  // Flits the most spacious VC of `slot` on `port` can still take, in its
  // output queue and downstream buffer, whether or not a packet holds it now:
  // congestion, as opposed to a VC merely in use.
  virtual int vc_room(int port, int slot, const Packet& p) = 0;
  // The most vc_room() can be on `port`: the smaller of a VC's output queue
  // and downstream buffer.
  virtual int vc_depth(int port) = 0;
  // The least occupied VC of `slot` on `port` as a credit-based switch sees it
  // (FOGSim's credit occupancy): flits in its output queue plus the downstream
  // credits in use, as a fraction of the downstream buffer.
  virtual double vc_credit_occupancy(int port, int slot, const Packet& p) = 0;
  // Flits held in this router's input buffers of `port` and in its output
  // queues of `port`, all VCs (buffer occupancy sampled by QCN congestion points).
  virtual int input_queue_flits(int port) const = 0;
  virtual int output_queue_flits(int port) const = 0;
  virtual Rng& rng() = 0;
  // Packets in this router's input buffers of `port` (all VCs), and the k-th of
  // them (0 <= k < input_packets(port)); a sampled buffer's victims (QCN-Switch).
  virtual int input_packets(int port) const = 0;
  virtual const Packet& input_packet(int port, int k) const = 0;
  // The packet that entered the output queues of `port` first among those still
  // there (the head of the port's queue, all VCs), or null when they are empty.
  virtual const Packet* output_head(int port) const = 0;
  // The current cycle: routing state that evolves in time (contention
  // counters) catches up to it lazily, as routers step only when busy.
  virtual Cycle cycle() const = 0;
  // Sends a 1-flit packet of kind `kind` (QCN-Switch's CNM) from this switch to
  // node `dst` on the notification class (RoutingFunction::sends_notifications),
  // carrying `value` in cc_value; route() sees it at every router on its way,
  // and the destination NIC discards it (no protocol reads that class).
  virtual void send_notification(PacketKind /*kind*/, int /*dst*/, int /*value*/, const Packet& /*ref*/) {
    throw std::logic_error("this router context sends no notifications");
  }
};

struct RouteResult {
  int port = -1;
  int slot = 0;  // VC slot within the packet's VC class
  // Taken only because a VC of it was free now (vc_free_now): no packet ever
  // waits for such a hop, so it adds no edge to the graph of waits.
  bool opportunistic = false;
};

class RoutingFunction {
 public:
  virtual ~RoutingFunction() = default;
  // Routes the head of `p` at the router of `ctx`, arrived on `in_port`.
  // Updates p's routing state for the hop it is about to take.
  virtual RouteResult route(RouterContext& ctx, int in_port, Packet& p) = 0;
  // VC slots per port this algorithm needs for deadlock freedom; also the
  // least number of VCs per class it runs with.
  virtual int vc_slots() const = 0;
  // Physical VCs (bit v: VC v of the packet's class) that carry `slot` when
  // each class has `vcs_per_class` VCs; every slot must get at least one.
  virtual uint32_t slot_vcs(int slot, int vcs_per_class) const {
    uint32_t mask = 0;
    for (int v = slot; v < vcs_per_class; v += vc_slots()) mask |= 1u << v;
    return mask;
  }
  // Algorithms that choose by what can be allocated now (vc_available) return
  // true: when VC allocation for their choice fails, the router calls
  // reroute() in the next cycle instead of waiting for the same slot.
  virtual bool reroutes_when_blocked() const { return false; }
  // Whether the VCs of `slot` need atomic allocation under wormhole switching:
  // the router gives such an output VC to a new packet only once the previous
  // one has left the downstream buffer (all credits back), so the buffer holds
  // one packet at a time. Duato's protocol needs it on the adaptive VCs: a
  // packet stuck behind another's tail there could not reach the escape VCs
  // and would wait on channels outside the escape order. Cut-through keeps
  // whole packets in a buffer and needs no such rule.
  virtual bool atomic_vc_allocation(int slot) const { return false; }
  // Algorithms whose channel dependencies may close a cycle return true: they
  // run only with deadlock recovery (routing.deadlock = "recovery").
  virtual bool needs_recovery() const { return false; }
  // True when a packet marked Packet::minimal_only (CBCM's throttled packets)
  // takes a minimal path: minimal algorithms, and adaptive ones that obey the mark.
  virtual bool honours_minimal_only() const { return false; }
  // The slots 0 .. escape_slots()-1 whose channel dependencies (direct, and
  // through hops on other slots) must form no cycle: every slot, or Duato's
  // escape VCs. The deadlock-freedom test checks this for every algorithm.
  virtual int escape_slots() const { return vc_slots(); }
  // The ring an escape channel (output `port` of `router`) belongs to when the
  // algorithm keeps a free buffer in every ring by admission (bubble flow
  // control): the cycles within a ring are what the admission breaks, so the
  // deadlock-freedom test takes each ring as one vertex. -1: checked alone.
  virtual int escape_ring(int /*router*/, int /*port*/) const { return -1; }
  // A fresh choice for a packet that route() already routed at this router:
  // must not advance the packet's routing state a second time.
  virtual RouteResult reroute(RouterContext& ctx, int in_port, Packet& p) { return route(ctx, in_port, p); }
  // Algorithms that keep per-router state fed by the input queues (contention
  // counters) return true; only then does the router call the two hooks below.
  virtual bool wants_queue_events() const { return false; }
  // The head of `p` became the front packet of an input queue of `in_port`
  // (once per packet and router).
  virtual void on_head_at_front(RouterContext& ctx, int in_port, const Packet& p) {}
  // The tail of `p`, announced by on_head_at_front, left the input buffer
  // (or the packet was dropped there).
  virtual void on_tail_left(RouterContext& ctx, int in_port, const Packet& p) {}
  // Algorithms that watch packets cross the switch (QCN-Switch's congestion
  // points and per-port packet counters) return true; only then does the
  // router call on_forward, when the head of `p` moves from input `in_port`
  // to the output queue of `out_port`.
  virtual bool wants_forward_events() const { return false; }
  virtual void on_forward(RouterContext& /*ctx*/, const Packet& /*p*/, int /*in_port*/, int /*out_port*/) {}
  // True when route() and reroute() read only the router they run in (its
  // RouterContext) and the packet, and the algorithm keeps no state of its
  // own: routers may then step in parallel (sim.threads). Anything that reads
  // another router, or counts, must keep the default.
  virtual bool reads_only_its_router() const { return false; }
  // Cycles at the start of every `period` in which the algorithm's own side band has every local
  // channel (ECtN's broadcast, when charged): routers send no flit on them then. cycles 0: none.
  struct LocalSideBand {
    int period = 1, cycles = 0;
  };
  virtual LocalSideBand local_sideband() const { return {}; }
  // Algorithms that send their own packets (send_notification) return true:
  // the network then adds a high-priority VC class for them after the protocol's.
  virtual bool sends_notifications() const { return false; }
  // The algorithm's counters for the results ("routing"); empty: none.
  virtual nlohmann::json stats() const { return nlohmann::json::object(); }
  // The hardware blocks (tlm/hw/) this algorithm runs, for the results ("hardware").
  virtual std::vector<hw::Block> hardware_blocks() const { return {}; }
};

}  // namespace ccsim
