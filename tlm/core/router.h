// Input-queued virtual-channel router with credit-based flow control, output
// queues (CIOQ), optional VOQ at the inputs, integer internal speedup,
// virtual cut-through (default) or wormhole switching, and priority classes of
// VCs. Mechanisms (routing, congestion control) live behind hooks.
//
// Timing: a head flit that reaches the input buffer in cycle t may leave on the
// output channel in cycle t + latency at the earliest (route compute, VC and
// switch allocation and traversal folded into `latency`). Body flits follow
// one per cycle. Routers step only when they hold flits.
#pragma once
#include <algorithm>
#include <array>
#include <systemc>
#include <vector>

#include "core/fifo.h"
#include "core/head_fifo.h"
#include "core/inline_first_array.h"
#include "core/link.h"
#include "core/packet.h"
#include "congestion/protocol_context.h"
#include "core/deferred_effects.h"
#include "core/scheduler.h"
#include "routing/routing.h"

namespace ccsim {

class Network;
class DeadlockRecovery;

struct RouterParams {
  int latency = 1;
  int speedup = 1;
  bool cut_through = true;  // false: wormhole
  bool voq = false;
  int output_buffer = 32;           // flits per output VC
  int vcs_per_class = 1;            // VCs of each priority class on every port
  int vc_slots = 1;                 // slots the routing function uses (K)
  std::vector<int> class_priority;  // per VC class
  // What occupancy() reports for a router-to-router port: false, the credits
  // in use (flits in the downstream buffer and in flight on both directions
  // of the channel); true, the downstream buffer's flits only (on 1 us links
  // the credits alone read a quiet channel as 2000 flits of queue).
  bool occupancy_downstream = false;
  // VC allocation: false, inputs are visited from a start that rotates every cycle, the
  // same for all outputs; true, each output grants round robin, its pointer moving past
  // the input it last granted (router.va_arbiter).
  bool va_round_robin = false;
  // With va_round_robin: the arbiters serve every transit input before any injection input.
  bool va_transit_priority = false;
};

class Router final : public sc_core::sc_module, public Component, public RouterContext, public SwitchView {
 public:
  Router(sc_core::sc_module_name name, int id, int radix, const RouterParams& params, Network* net);

  // Wiring: `in` delivers flits into input port `port` (we return credits on
  // it); `out` carries our output `port` to a buffer of `downstream_depth`
  // flits per VC.
  void connect(int port, PortKind kind, Link* in, int input_depth, Link* out, int downstream_depth);

  void step(Cycle now) override;
  void prefetch() const override;
  // step() in two halves for the parallel phases of a cycle (sim.threads):
  // receive() takes what the links delivered (it only consumes from links),
  // forward() allocates, crosses the switch and sends (it only produces on
  // links). Every router's receive() of a cycle runs before any forward().
  void receive(Cycle now);
  void forward(Cycle now);
  // Parallel phases: wake-ups and flit-hop counts go to `to` (its home thread's)
  // instead of the scheduler and the network, which receive them afterwards.
  void defer_shared_effects(DeferredEffects* to) { deferred_ = to; }

  // RouterContext
  int router_id() const override { return id_; }
  int occupancy(int port) override;
  int remote_occupancy(int router, int port) override;
  bool vc_available(int port, int slot, const Packet& p) override;
  bool vc_free_now(int port, int slot, const Packet& p) override;
  int vc_room(int port, int slot, const Packet& p) override;
  int vc_depth(int port) override { return std::min(params_.output_buffer, out_[port].downstream_depth); }
  double vc_credit_occupancy(int port, int slot, const Packet& p) override;
  int input_queue_flits(int port) const override;
  int output_queue_flits(int port) const override { return out_[port].queued; }
  Rng& rng() override { return rng_; }
  int input_packets(int port) const override { return in_[port].packets; }
  const Packet& input_packet(int port, int k) const override;
  const Packet* output_head(int port) const override;
  Cycle cycle() const override;
  void send_notification(PacketKind kind, int dst, int value, const Packet& ref) override;

  // SwitchView (what congestion control sees) and inspection for the
  // conservation checks and deadlock reports.
  int id() const override { return id_; }
  int radix() const override { return radix_; }
  int num_vcs() const override { return num_vcs_; }
  PortKind port_kind(int port) const override { return out_[port].kind; }
  int input_flits(int port, int vc) const override;
  int output_flits(int port, int vc) const;
  int credits(int port, int vc) const { return out_[port].vcs[vc].credits; }
  int downstream_depth(int port) const { return out_[port].downstream_depth; }
  int input_depth(int port) const override { return in_[port].depth; }
  // Credits that have arrived are absorbed first.
  bool output_vc_free(int port, int vc) override;
  bool output_vc_held(int port, int vc) const override { return out_[port].vcs[vc].locked; }
  void visit_requests(Cycle now, RequestVisitor f) const override { for_each_request(now, f); }
  int buffered_flits() const { return buffered_flits_; }
  template <typename F>
  void for_each_packet(F&& f) const;  // every packet held, once
  // VC-allocation requests of cycle `now`, for congestion control: for the
  // front packet of every input VC (every VOQ queue) that is routed and past
  // its pipeline delay, f(in_port, vc, out_port, packet, has_vc) -- has_vc
  // false while it waits for an output VC, true while it holds one and has a
  // flit to move. Called in increasing input-port order.
  template <typename F>
  void for_each_request(Cycle now, F&& f) const;
  // The first input port holding a packet that cannot move; -1 if none.
  int blocked_input(int& vc, int& out_port) const;

 private:
  // Where an input packet stands with its output.
  enum class Route : uint8_t {
    Unrouted,   // not routed yet
    Reroute,    // routed, its allocation failed, and the routing function chooses again
    WaitingVc,  // routed to out_port, waiting for a VC of slot `vc`
    HasVc,      // holds output VC `vc` of out_port
    Recovery,   // rescued by deadlock recovery: it drains into the deadlock buffer
  };
  // What allocation reads per hop is kept here, beside the packet pointer: a packet
  // waiting in a queue is cold, and touching it costs a cache miss per try.
  struct InPacket {
    Packet* pkt;
    Cycle ready;
    // The low 32 bits of the cycle it became the front of its queue (deadlock recovery's
    // timeout, which reads it within 2^32 cycles): 32 bits keep the entry at 32 bytes.
    uint32_t front;
    uint16_t sent;
    uint16_t size;  // pkt->size
    int16_t out_port;
    uint8_t vc;  // WaitingVc: the VC slot; HasVc: the output VC
    Route route;
    uint8_t vc_class;  // pkt->vc_class
  };
  static_assert(sizeof(InPacket) == 32, "two queue entries per cache line");
  struct alignas(64) InputVc {
    InlineFirstArray<HeadFifo<InPacket>> queues;  // 1, or one per output port with VOQ
    uint64_t nonempty = 0;                        // bit q set when queues[q] holds packets
    uint64_t has_vc = 0;                          // bit q set when the front of queues[q] holds an output VC
    uint64_t blocked = 0;                         // VOQ: bit q set while the front of queues[q] is known blocked
    int occupancy = 0;
    uint16_t arriving_flits = 0;  // flits of `arriving` that have come
    uint8_t last_queue = 0;       // queue receiving the packet in transfer
    bool discarding = false;      // `arriving` was dropped: its flits are discarded
    // The packet whose flits are still arriving (the back of queues[last_queue] unless
    // discarded), or null: every other queued packet has arrived whole (arrived()).
    Packet* arriving = nullptr;
  };
  static_assert(sizeof(InputVc) <= 128, "two cache lines per input VC: its first queue's, and its state's");
  static_assert(sizeof(HeadFifo<InPacket>) == 64, "a VOQ queue's header and front on one cache line");
  struct InputPort {
    Link* link = nullptr;
    std::vector<InputVc> vcs;
    int depth = 0;
    int packets = 0;
    int flits = 0;         // over all its VCs (downstream occupancy reads it)
    uint32_t busy = 0;     // bit v set while VC v holds packets
    uint32_t need_va = 0;  // bit v set while a front packet of VC v has no output VC
    uint32_t has_vc = 0;   // bit v set while a front packet of VC v holds an output VC
    int rr = 0;
  };
  struct OutPacket {
    Packet* pkt;
    uint16_t sent;
    uint16_t size;     // pkt->size
    uint8_t vc_class;  // pkt->vc_class
    Cycle entered;     // head entered the output queue
  };
  struct OutputVc {
    HeadFifo<OutPacket> q;
    int occupancy = 0;  // flits in the output queue
    int reserved = 0;   // flits still to come of the packet being transferred
    int credits = 0;    // free slots downstream
    bool locked = false;
    bool atomic = false;   // given to a new packet only when empty downstream too
    bool filling = false;  // the back of q is the packet being transferred (arrived())
  };
  struct OutputPort {
    Link* link = nullptr;
    PortKind kind = PortKind::Terminal;
    std::vector<OutputVc> vcs;
    int downstream_depth = 0;
    int queued = 0;    // flits in all output queues of this port
    int accepted = 0;  // flits accepted from the crossbar this cycle
    int rr = 0;        // link arbiter
    int sa_rr = 0;     // crossbar output arbiter
    int va_rr = 0;     // VC allocator's round-robin pointer (va_round_robin)
    // Grows whenever a VC of the port may have become allocatable or sendable (a credit came
    // back, the crossbar moved a flit in, the link sent one): the waits above depend on
    // nothing else, so an unchanged version means an unchanged answer.
    uint64_t version = 1;
    uint64_t link_idle_at = 0;  // version when the link last found no VC to send
    uint64_t bit = 0;           // 1 << its port number (kept: bump() runs per flit)
    uint32_t filled = 0;        // bit v set while vcs[v].q holds packets (the link skips the others)
    bool sideband = false;      // a local channel the routing side band takes at times (local_sideband())
  };

  void allocate_vcs(Cycle now);
  // VC allocation with a round-robin arbiter per output (va_round_robin; va_round_robin.cpp).
  void allocate_vcs_round_robin(Cycle now);
  // Offers the front of queue q of input VC (p, v) an output VC; whether it still waits
  // for one afterwards (a drop or a rescue also ends the wait).
  bool front_waits(Cycle now, int p, int v, int q);
  // Whether a VC of `slot` on `port` can be given to p now with room for it downstream (after the
  // flits already queued on that VC too, if `after_queued`).
  bool vc_allocatable(int port, int slot, const Packet& p, bool after_queued) const;
  // Routes a front packet that has no route yet, or chooses again after a failed allocation;
  // whether the hop chosen now is opportunistic (RouteResult).
  bool route_front(int in_port, InPacket& e);
  void traverse_switch(Cycle now);
  void send_links(Cycle now);
  void grant(Cycle now, int in_port, int out_port);
  bool try_allocate(Cycle now, int in_port, InPacket& ip, uint64_t& blocked_at);
  // Whether the protocol drops the waiting front packet `e` now.
  bool drop_waiting(const InPacket& e, Cycle now);
  // Drops the front packet of queue `q` of input VC (`in_port`, `vc`): its
  // buffered flits are freed and credited, the rest discarded on arrival.
  void drop_front(Cycle now, int in_port, int vc, int q);
  // The front packet of queue `q` of input VC (`in_port`, `vc`) has left the
  // buffer (sent, rescued or dropped): the next one, if any, becomes the front.
  void pop_front_packet(Cycle now, int in_port, int vc, int q);
  // Deadlock recovery: whether the blocked front packet `e` may take the
  // recovery path now (timed out, not ejecting, token captured).
  bool rescue(Cycle now, InPacket& e);
  // Moves the next arrived flit of the rescued packet into the deadlock buffer.
  void drain_rescued(Cycle now);
  // The packet trace's records, out of the hot loops (sim.trace).
  [[gnu::cold, gnu::noinline]] void trace_arrival(const Packet& p, int port, int vc, Cycle now);
  [[gnu::cold, gnu::noinline]] void trace_departure(const Packet& p, int port, int vc, Cycle now);
  // Wakes the component of scheduler slot `target` at `at` and counts a flit-hop, through the scheduler and the
  // network, or later (defer_shared_effects()).
  void wake(int32_t target, Cycle at);
  void count_hop(Cycle now);
  // Credits the link has delivered by `now` (also for remote occupancy reads).
  void absorb_credits(OutputPort& op, Cycle now) {
    if (op.link && op.link->credit_ready(now)) take_credits(op, now);  // inline: most ports have none
  }
  void take_credits(OutputPort& op, Cycle now);
  int queue_count() const { return params_.voq ? radix_ : 1; }
  // Flits of a queued packet that have reached this buffer (the rest are still upstream).
  static int arrived(const InputVc& vc, const InPacket& e) { return e.pkt == vc.arriving ? vc.arriving_flits : e.size; }
  static int arrived(const OutputVc& ov, size_t i) {
    return ov.filling && i + 1 == ov.q.size() ? ov.q[i].size - ov.reserved : ov.q[i].size;
  }
  // The VCs of class `cls` (bit v); 64-bit so that 32 VCs in one class (the maximum) shift by 32.
  uint32_t class_vcs(int cls) const {
    return static_cast<uint32_t>(((uint64_t{1} << params_.vcs_per_class) - 1) << (cls * params_.vcs_per_class));
  }
  // A VC of output port `op` may have become allocatable or sendable.
  void bump(OutputPort& op) {
    ++op.version;
    changed_ports_ |= op.bit;
  }
  // The output port version at which the front of queue q of input VC (p, v) last failed to
  // get a VC (0: not tried). While the version stays the allocation would fail again: it is
  // not retried.
  uint64_t& blocked_at(int p, int v, int q) { return blocked_at_[(p * num_vcs_ + v) * queue_count() + q]; }
  // Flits a packet needs free in an output queue (or downstream) to be given
  // the VC: all of it under cut-through, its head under wormhole.
  int room_needed(int size) const { return params_.cut_through ? size : 1; }
  // Whether output VC `ov` of `op` can take a packet needing `room` flits now.
  bool can_allocate(const OutputPort& op, const OutputVc& ov, int room) const {
    if (ov.locked) return false;
    if (ov.atomic) return ov.occupancy == 0 && ov.credits == op.downstream_depth;
    return params_.output_buffer - ov.occupancy - ov.reserved >= room;
  }

  int id_, radix_, num_vcs_;
  RouterParams params_;
  Network* net_;
  Rng rng_;
  std::vector<InputPort> in_;
  std::vector<OutputPort> out_;
  std::vector<int> vc_class_;            // physical VC -> class
  std::vector<int> class_order_;         // classes by decreasing priority
  std::array<uint32_t, 32> slot_vcs_{};  // per VC slot: its VCs within a class (bit v)
  bool reroute_ = false;                 // the routing function chooses again after a failed allocation
  bool queue_events_ = false;            // the routing function follows heads and tails of the input queues
  bool forward_events_ = false;          // the routing function follows packets crossing the switch
  uint32_t atomic_vcs_ = 0;              // VCs of a class allocated atomically (wormhole, router-to-router)
  int buffered_flits_ = 0;               // input + output queues
  bool track_waiting_ = false;           // the protocol drops packets waiting in switch queues
  bool skip_blocked_ = false;            // VOQ, and blocked fronts need no visit (no rescue, no drop)
  uint64_t changed_ports_ = 0;           // output ports whose version moved since the last VA pass
  std::vector<uint64_t> blocked_at_;     // blocked_at(p, v, q), contiguous
  int va_start_ = 0;
  // The routing side band's share of the local channels.
  RoutingFunction::LocalSideBand sideband_;
  struct VaRequest {
    uint32_t order;  // output port, then the input's distance from the port's pointer
    int16_t p;
    uint8_t v, q;
  };
  std::vector<VaRequest> va_requests_;  // allocate_vcs_round_robin's requests of one class
  DeadlockRecovery* recovery_ = nullptr;
  Cycle recovery_timeout_ = 0;
  struct Rescued {
    int port = -1, vc = 0, queue = 0;
  } rescued_;  // the packet this router rescues
  // Crossbar requests of one round: per input, the chosen (vc, queue).
  struct Request {
    int vc, queue, out_port, priority;
  };
  std::vector<Request> requests_;
  std::vector<uint64_t> req_mask_;       // per output: inputs requesting it this round
  DeferredEffects* deferred_ = nullptr;  // defer_shared_effects()
};

template <typename F>
void Router::for_each_packet(F&& f) const {
  for (auto& ip : in_)
    for (auto& vc : ip.vcs)
      for (auto& q : vc.queues)
        for (size_t i = 0; i < q.size(); ++i) f(q[i].pkt, arrived(vc, q[i]) - q[i].sent);
  for (auto& op : out_)
    for (auto& vc : op.vcs)
      for (size_t i = 0; i < vc.q.size(); ++i) f(vc.q[i].pkt, arrived(vc, i) - vc.q[i].sent);
}

template <typename F>
void Router::for_each_request(Cycle now, F&& f) const {
  for (int p = 0; p < radix_; ++p) {
    const InputPort& ip = in_[p];
    for (uint32_t m = ip.busy; m; m &= m - 1) {
      const int v = __builtin_ctz(m);
      const InputVc& vc = ip.vcs[v];
      for (uint64_t qm = vc.nonempty; qm; qm &= qm - 1) {
        const InPacket& e = vc.queues[__builtin_ctzll(qm)].front();
        if (e.ready > now || e.out_port < 0) continue;
        const bool has_vc = e.route == Route::HasVc;
        if (has_vc && arrived(vc, e) <= e.sent) continue;
        f(p, v, static_cast<int>(e.out_port), *e.pkt, has_vc);
      }
    }
  }
}

}  // namespace ccsim
