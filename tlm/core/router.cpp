#include "core/router.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <climits>
#include <stdexcept>

#include "core/deadlock_recovery.h"
#include "core/network.h"
#include "core/params.h"
#include "core/prefetch.h"
#include "core/sim_error.h"

namespace ccsim {

Router::Router(sc_core::sc_module_name name, int id, int radix, const RouterParams& params, Network* net)
    : sc_core::sc_module(name),
      id_(id),
      radix_(radix),
      params_(params),
      net_(net),
      rng_(Rng::derive(net->seed(), 1, static_cast<uint64_t>(id))),
      in_(radix),
      out_(radix) {
  const int classes = static_cast<int>(params_.class_priority.size());
  num_vcs_ = classes * params_.vcs_per_class;
  for (int v = 0; v < num_vcs_; ++v) vc_class_.push_back(v / params_.vcs_per_class);
  for (int c = 0; c < classes; ++c) class_order_.push_back(c);
  std::stable_sort(class_order_.begin(), class_order_.end(),
                   [&](int x, int y) { return params_.class_priority[x] > params_.class_priority[y]; });
  requests_.resize(radix);
  req_mask_.assign(radix, 0);
  if (num_vcs_ > 32) throw ConfigError("router.vcs", "at most 32 VCs per port in all classes");
  if (radix > 64) throw ConfigError("topology", "routers of radix above 64 are not supported");
  blocked_at_.assign(static_cast<size_t>(radix) * num_vcs_ * queue_count(), 0);
  for (int o = 0; o < radix; ++o) out_[o].bit = uint64_t{1} << o;
  RoutingFunction& rf = net->routing();
  for (int s = 0; s < params_.vc_slots; ++s) {
    slot_vcs_[s] = rf.slot_vcs(s, params_.vcs_per_class);
    assert(slot_vcs_[s] != 0 && slot_vcs_[s] < (uint64_t{1} << params_.vcs_per_class));
  }
  reroute_ = rf.reroutes_when_blocked();
  queue_events_ = rf.wants_queue_events();
  forward_events_ = rf.wants_forward_events();
  sideband_ = rf.local_sideband();
  recovery_ = net->recovery();
  if (recovery_) recovery_timeout_ = recovery_->timeout();
  track_waiting_ = net->congestion().drops_waiting_packets();
  skip_blocked_ = params_.voq && !recovery_ && !track_waiting_;
  if (!params_.cut_through)
    for (int s = 0; s < params_.vc_slots; ++s)
      if (rf.atomic_vc_allocation(s)) atomic_vcs_ |= slot_vcs_[s];
  // VOQ picks the queue from the route on arrival; a new route would have to move the packet.
  if (reroute_ && params_.voq)
    throw ConfigError("router.voq", "must be false with a routing algorithm that re-routes blocked packets");
}

void Router::connect(int port, PortKind kind, Link* in, int input_depth, Link* out, int downstream_depth) {
  InputPort& ip = in_[port];
  ip.link = in;
  ip.depth = input_depth;
  ip.vcs.clear();
  ip.vcs.resize(num_vcs_);
  for (auto& vc : ip.vcs) vc.queues.resize(queue_count());
  OutputPort& op = out_[port];
  op.link = out;
  op.kind = kind;
  op.downstream_depth = downstream_depth;
  op.sideband = kind == PortKind::Local && sideband_.cycles > 0;
  op.vcs.assign(num_vcs_, OutputVc{});
  for (int v = 0; v < num_vcs_; ++v) {
    op.vcs[v].credits = downstream_depth;
    // Ejection never waits on the network: only channels to routers need it.
    op.vcs[v].atomic = kind != PortKind::Terminal && (atomic_vcs_ >> (v % params_.vcs_per_class) & 1u);
  }
}

int Router::occupancy(int port) {
  // Credits that have arrived but were not yet absorbed still count as free.
  OutputPort& op = out_[port];
  absorb_credits(op, net_->now());
  int occ = op.queued;
  if (params_.occupancy_downstream && op.kind != PortKind::Terminal) {
    const Router& down = *static_cast<const Router*>(op.link->downstream);
    return occ + down.input_queue_flits(op.link->downstream_port);
  }
  for (int v = 0; v < num_vcs_; ++v) occ += op.downstream_depth - op.vcs[v].credits;
  return occ;
}

int Router::remote_occupancy(int router, int port) { return net_->router(router).occupancy(port); }

Cycle Router::cycle() const { return net_->now(); }

void Router::send_notification(PacketKind kind, int dst, int value, const Packet& ref) {
  net_->send_notification(id_, kind, dst, value, ref);
}

bool Router::vc_allocatable(int port, int slot, const Packet& p, bool after_queued) const {
  const OutputPort& op = out_[port];
  const int base = p.vc_class * params_.vcs_per_class;
  const int room = room_needed(p.size);
  for (uint32_t m = slot_vcs_[slot]; m; m &= m - 1) {
    const OutputVc& ov = op.vcs[base + __builtin_ctz(m)];
    if (can_allocate(op, ov, room) && ov.credits - (after_queued ? ov.occupancy : 0) >= room) return true;
  }
  return false;
}

bool Router::vc_available(int port, int slot, const Packet& p) { return vc_allocatable(port, slot, p, false); }

bool Router::vc_free_now(int port, int slot, const Packet& p) { return vc_allocatable(port, slot, p, true); }

int Router::vc_room(int port, int slot, const Packet& p) {
  const OutputPort& op = out_[port];
  const int base = p.vc_class * params_.vcs_per_class;
  int room = 0;
  for (uint32_t m = slot_vcs_[slot]; m; m &= m - 1) {
    const OutputVc& ov = op.vcs[base + __builtin_ctz(m)];
    room = std::max(room, std::min(params_.output_buffer - ov.occupancy - ov.reserved, ov.credits));
  }
  return room;
}

double Router::vc_credit_occupancy(int port, int slot, const Packet& p) {
  const OutputPort& op = out_[port];
  const int base = p.vc_class * params_.vcs_per_class;
  int least = INT_MAX;
  for (uint32_t m = slot_vcs_[slot]; m; m &= m - 1) {
    const OutputVc& ov = op.vcs[base + __builtin_ctz(m)];
    least = std::min(least, ov.occupancy + op.downstream_depth - ov.credits);
  }
  return static_cast<double>(least) / op.downstream_depth;
}

void Router::step(Cycle now) {
  receive(now);
  forward(now);
}

void Router::prefetch() const {
  // The port arrays: receive() reads each port's links from them.
  prefetch_lines(in_.data(), in_.size() * sizeof(InputPort));
  prefetch_lines(out_.data(), out_.size() * sizeof(OutputPort));
}

void Router::forward(Cycle now) {
  if (buffered_flits_ > 0) {
    if (params_.va_round_robin)
      allocate_vcs_round_robin(now);
    else
      allocate_vcs(now);
    if (net_->cc_allocation_hook()) net_->congestion().on_vc_allocation(*this, now);
    traverse_switch(now);
    send_links(now);
  }
  if (rescued_.port >= 0) drain_rescued(now);
  if (buffered_flits_ > 0) wake(slot, now + 1);
}

void Router::wake(int32_t target, Cycle at) {
  if (deferred_)
    deferred_->wakes.push_back({target, at});
  else
    net_->scheduler().wake_slot(target, at);
}

void Router::count_hop(Cycle now) {
  if (deferred_)
    ++deferred_->hops;
  else
    net_->count_flit_hops(1, now);
}

void Router::receive(Cycle now) {
  // Each port's two links are cold (their far ends wrote them): ask for all of
  // them before the first is read, so their misses overlap instead of queueing.
  for (int p = 0; p < radix_; ++p) {
    if (in_[p].link) prefetch_lines(in_[p].link, sizeof(Link));
    if (out_[p].link) prefetch_lines(out_[p].link, sizeof(Link));
  }
  // Then, with those lines on their way, for what is due: the flits and credits themselves,
  // and the output VCs a credit goes to.
  for (int p = 0; p < radix_; ++p) {
    if (const Link* in = in_[p].link) in->prefetch_due_flit(now);
    const OutputPort& op = out_[p];
    if (op.link && op.link->prefetch_due_credit(now)) prefetch_lines(op.vcs.data(), op.vcs.size() * sizeof(OutputVc));
  }
  for (int p = 0; p < radix_; ++p) {
    absorb_credits(out_[p], now);
    InputPort& ip = in_[p];
    if (!ip.link) continue;
    while (ip.link->flit_ready(now)) {
      Flit f = ip.link->take_flit();
      InputVc& vc = ip.vcs[f.vc];
      // A congestion-control protocol may drop a packet as its head arrives
      // (a last-hop drop): its flits are discarded and credited at once.
      if (f.head && net_->cc_arrival_hook() && net_->congestion().on_switch_arrival(*this, *f.pkt, p, now)) {
        vc.arriving = f.pkt;
        vc.discarding = true;
      }
      if (vc.discarding) {
        ip.link->send_credit(now, f.vc);
        net_->flit_discarded();
        if (f.tail) {
          vc.discarding = false;
          vc.arriving = nullptr;
          net_->dropped(*this, f.pkt, now);
        }
        continue;
      }
      if (f.head) {
        f.pkt->last_router = id_;
        if (__builtin_expect(net_->tracing(), 0) && f.pkt->traced) trace_arrival(*f.pkt, p, f.vc, now);
        const auto arrival = static_cast<uint32_t>(now);  // its front time, should its queue be empty
        InPacket e{f.pkt, now + params_.latency, arrival, 0, f.size, -1, 0, Route::Unrouted, f.vc_class};
        int q = 0;
        if (params_.voq) {
          RouteResult r = net_->routing().route(*this, p, *f.pkt);
          e.out_port = static_cast<int16_t>(r.port);
          e.vc = static_cast<uint8_t>(r.slot);
          e.route = Route::WaitingVc;
          q = r.port;
        }
        const bool at_front = vc.queues[q].empty();
        if (at_front) ip.need_va |= 1u << f.vc;
        vc.nonempty |= uint64_t{1} << q;
        ip.busy |= 1u << f.vc;
        vc.queues[q].push_back(e);
        if (at_front && queue_events_) net_->routing().on_head_at_front(*this, p, *f.pkt);
        vc.last_queue = static_cast<uint8_t>(q);
        ++ip.packets;
        vc.arriving = f.tail ? nullptr : f.pkt;
        vc.arriving_flits = 1;
      } else {
        ++vc.arriving_flits;
        if (f.tail) vc.arriving = nullptr;
      }
      ++vc.occupancy;
      ++ip.flits;
      ++buffered_flits_;
      assert(vc.occupancy <= ip.depth && "credit protocol violated");
    }
  }
}

void Router::trace_arrival(const Packet& p, int port, int vc, Cycle now) {
  net_->packet_trace()->arrived(p, id_, port, vc, now);
}

void Router::trace_departure(const Packet& p, int port, int vc, Cycle now) {
  net_->packet_trace()->departed(p, id_, port, vc, out_[port].kind, now);
}

void Router::take_credits(OutputPort& op, Cycle now) {
  do ++op.vcs[op.link->take_credit()].credits;
  while (op.link->credit_ready(now));
  bump(op);
}

bool Router::route_front(int in_port, InPacket& e) {
  if (e.route != Route::Unrouted && e.route != Route::Reroute) return false;
  RoutingFunction& rf = net_->routing();
  RouteResult r = e.route == Route::Unrouted ? rf.route(*this, in_port, *e.pkt) : rf.reroute(*this, in_port, *e.pkt);
  e.out_port = static_cast<int16_t>(r.port);
  e.vc = static_cast<uint8_t>(r.slot);
  e.route = Route::WaitingVc;
  return r.opportunistic;
}

bool Router::try_allocate(Cycle now, int in_port, InPacket& e, uint64_t& blocked_at) {
  if (e.ready > now) return false;
  // Routed and allocated in one step: an opportunistic hop (free now) gets its VC here.
  const bool opportunistic = route_front(in_port, e);
  OutputPort& op = out_[e.out_port];
  if (blocked_at == op.version) return false;  // nothing freed since the last try
  const int base = e.vc_class * params_.vcs_per_class;
  const int room = room_needed(e.size);
  int best = -1;
  int64_t best_free = -1;
  for (uint32_t m = slot_vcs_[e.vc]; m; m &= m - 1) {
    const int v = base + __builtin_ctz(m);
    OutputVc& ov = op.vcs[v];
    if (!can_allocate(op, ov, room)) continue;
    // Prefer the VC with most free space downstream, then in the queue (at most
    // 2^20 flits, so the queue's share stays below the credit's unit 2^21).
    const int64_t score = (int64_t{ov.credits} << 21) + params_.output_buffer - ov.occupancy - ov.reserved;
    if (score > best_free) {
      best_free = score;
      best = v;
    }
  }
  if (best < 0) {
    if (opportunistic)  // the deadlock freedom of OLM's ladder rests on this never happening
      throw SimError(fmt::format("router {}: an opportunistic hop to port {} found no VC", id_, e.out_port));
    if (reroute_)
      e.route = Route::Reroute;
    else
      blocked_at = op.version;
    return false;
  }
  OutputVc& ov = op.vcs[best];
  ov.locked = true;
  ov.reserved = e.size;
  e.vc = static_cast<uint8_t>(best);
  e.route = Route::HasVc;
  return true;
}

void Router::allocate_vcs(Cycle now) {
  // Inputs are visited from a rotating start so no input is favoured; classes
  // by priority.
  const int start = va_start_;
  va_start_ = va_start_ + 1 == radix_ ? 0 : va_start_ + 1;
  // Output ports whose version moved since the last pass.
  const uint64_t changed = changed_ports_;
  changed_ports_ = 0;
  // The inputs with a front waiting for a VC, in the rotating order: `start` up, then from 0.
  // (Only the input being visited can gain one during the pass, by a drop.)
  uint64_t waiting_inputs = 0;
  for (int p = 0; p < radix_; ++p)
    if (in_[p].need_va) waiting_inputs |= uint64_t{1} << p;
  // Ask for every waiting input VC (two lines each) before visiting the first: cold, and
  // visited one after another, their misses would queue.
  for (uint64_t pm = waiting_inputs; pm; pm &= pm - 1) {
    const InputPort& ip = in_[__builtin_ctzll(pm)];
    for (uint32_t m = ip.need_va; m; m &= m - 1) {
      const char* vc = reinterpret_cast<const char*>(&ip.vcs[__builtin_ctz(m)]);
      __builtin_prefetch(vc);
      __builtin_prefetch(vc + 64);
    }
  }
  // Then the packets at their fronts, which routing reads (their destination) first.
  for (uint64_t pm = waiting_inputs; pm; pm &= pm - 1) {
    const InputPort& ip = in_[__builtin_ctzll(pm)];
    for (uint32_t m = ip.need_va; m; m &= m - 1) {
      const InputVc& vc = ip.vcs[__builtin_ctz(m)];
      for (uint64_t qm = vc.nonempty & ~vc.has_vc; qm; qm &= qm - 1)
        __builtin_prefetch(vc.queues[__builtin_ctzll(qm)].front().pkt);
    }
  }
  const uint64_t from_start = waiting_inputs & (~uint64_t{0} << start);
  const uint64_t before_start = waiting_inputs & ~from_start;
  for (int cls : class_order_) {
    const uint32_t cls_mask = class_vcs(cls);
    for (const uint64_t inputs : {from_start, before_start}) {
      for (uint64_t pm = inputs; pm; pm &= pm - 1) {
        const int p = __builtin_ctzll(pm);
        InputPort& ip = in_[p];
        for (uint32_t m = ip.need_va & cls_mask; m; m &= m - 1) {
          const int v = __builtin_ctz(m);
          InputVc& vc = ip.vcs[v];
          // With VOQ the queue is the output port: a front that failed at its port's current
          // version is known to fail again without a visit.
          uint64_t blocked = 0;
          if (skip_blocked_) blocked = vc.blocked &= ~changed;
          bool waiting = blocked != 0;
          for (uint64_t qm = vc.nonempty & ~vc.has_vc & ~blocked; qm; qm &= qm - 1) {
            const int q = __builtin_ctzll(qm);
            if (vc.queues[q].front().route == Route::Recovery) continue;
            if (front_waits(now, p, v, q)) waiting = true;
          }
          if (!waiting) ip.need_va &= ~(1u << v);
        }
      }
    }
  }
}

bool Router::front_waits(Cycle now, int p, int v, int q) {
  InputPort& ip = in_[p];
  InputVc& vc = ip.vcs[v];
  InPacket& e = vc.queues[q].front();
  // In its pipeline delay it can neither move nor be rescued or dropped. It stays among the
  // requests all the same: the allocator's passes over them keep its lines warm for when it is ready.
  if (e.ready > now) return true;
  if (try_allocate(now, p, e, blocked_at(p, v, q))) {
    vc.has_vc |= uint64_t{1} << q;
    ip.has_vc |= 1u << v;
    return false;
  }
  if (skip_blocked_ && blocked_at(p, v, q) == out_[q].version) vc.blocked |= uint64_t{1} << q;
  if (recovery_ && rescue(now, e)) {
    rescued_ = {p, v, q};
    return false;
  }
  if (track_waiting_ && drop_waiting(e, now)) {
    drop_front(now, p, v, q);
    if (vc.queues[q].empty()) return false;
  }
  return true;
}

void Router::traverse_switch(Cycle now) {
  for (auto& op : out_) op.accepted = 0;
  const int n = params_.vcs_per_class;
  const int top_priority = params_.class_priority[class_order_[0]];
  for (int round = 0; round < params_.speedup; ++round) {
    // Input stage: each input picks one VC with a flit to move (priority
    // class first, then round robin) and requests that VC's output.
    uint64_t outputs = 0;
    for (int p = 0; p < radix_; ++p) {
      InputPort& ip = in_[p];
      if (!ip.has_vc) continue;
      Request& r = requests_[p];
      r.out_port = -1;
      for (int cls : class_order_) {
        const int vbase = cls * n;
        for (int k = 0; k < n && r.out_port < 0; ++k) {
          int v = ip.rr + k;
          v = vbase + (v >= n ? v - n : v);
          if (!(ip.has_vc >> v & 1u)) continue;
          InputVc& vc = ip.vcs[v];
          for (uint64_t qm = vc.has_vc; qm; qm &= qm - 1) {
            const int q = __builtin_ctzll(qm);
            InPacket& e = vc.queues[q].front();
            if (arrived(vc, e) <= e.sent) continue;
            OutputPort& op = out_[e.out_port];
            if (op.accepted >= params_.speedup) continue;
            if (!params_.cut_through && op.vcs[e.vc].occupancy + 1 > params_.output_buffer) continue;
            r = {v, q, e.out_port, params_.class_priority[cls]};
            break;
          }
        }
        if (r.out_port >= 0) break;
      }
      if (r.out_port >= 0) {
        req_mask_[r.out_port] |= uint64_t{1} << p;
        outputs |= uint64_t{1} << r.out_port;
      }
    }
    if (!outputs) break;
    // Output stage: each output grants up to its remaining speedup, the
    // highest priority class first, round robin among inputs.
    for (uint64_t om = outputs; om; om &= om - 1) {
      const int o = __builtin_ctzll(om);
      OutputPort& op = out_[o];
      uint64_t mask = req_mask_[o];
      req_mask_[o] = 0;
      while (mask && op.accepted < params_.speedup) {
        uint64_t pick = mask;
        uint64_t hi = 0;
        for (uint64_t m = mask; m; m &= m - 1)
          if (requests_[__builtin_ctzll(m)].priority == top_priority) hi |= m & -m;
        if (hi) pick = hi;
        const uint64_t from_rr = pick & (~uint64_t{0} << op.sa_rr);
        const int p = __builtin_ctzll(from_rr ? from_rr : pick);
        mask &= ~(uint64_t{1} << p);
        grant(now, p, o);
        op.sa_rr = p + 1 == radix_ ? 0 : p + 1;
      }
    }
  }
}

void Router::grant(Cycle now, int p, int o) {
  Request& r = requests_[p];
  OutputPort& op = out_[o];
  InputPort& ip = in_[p];
  InputVc& vc = ip.vcs[r.vc];
  HeadFifo<InPacket>& q = vc.queues[r.queue];
  InPacket& e = q.front();
  OutputVc& ov = op.vcs[e.vc];
  if (e.sent == 0) {
    if (track_waiting_) e.pkt->queued += static_cast<int32_t>(now - e.ready);
    ov.q.push_back({e.pkt, 0, e.size, e.vc_class, now});
    ov.filling = true;
    op.filled |= 1u << e.vc;
    if (net_->cc_switch_hook()) net_->congestion().on_switch_forward(*this, *e.pkt, p, r.vc, o, now);
    if (forward_events_) net_->routing().on_forward(*this, *e.pkt, p, o);
  }
  ++ov.occupancy;
  --ov.reserved;
  bump(op);
  ++op.queued;
  ++op.accepted;
  ++e.sent;
  --vc.occupancy;
  --ip.flits;
  ip.link->send_credit(now, r.vc);
  if (e.sent == e.size) {
    ov.locked = false;
    ov.filling = false;
    pop_front_packet(now, p, r.vc, r.queue);
  }
  const int next = r.vc % params_.vcs_per_class + 1;
  ip.rr = next == params_.vcs_per_class ? 0 : next;
  r.out_port = -1;
}

void Router::send_links(Cycle now) {
  for (int o = 0; o < radix_; ++o) {
    OutputPort& op = out_[o];
    if (op.queued == 0 || op.link_idle_at == op.version) continue;
    if (op.sideband && now % sideband_.period < sideband_.cycles) continue;  // the side band has the channel
    int chosen = -1;
    const int n = params_.vcs_per_class;
    for (int cls : class_order_) {
      const int vbase = cls * n;
      if (!(op.filled & class_vcs(cls))) continue;
      for (int k = 0; k < n; ++k) {
        const int v = vbase + (op.rr + k < n ? op.rr + k : op.rr + k - n);
        if (!(op.filled >> v & 1u)) continue;
        OutputVc& ov = op.vcs[v];
        const OutPacket& f = ov.q.front();
        if (arrived(ov, 0) <= f.sent) continue;
        const int need = f.sent == 0 ? room_needed(f.size) : 1;
        if (ov.credits < need) continue;
        chosen = v;
        break;
      }
      if (chosen >= 0) break;
    }
    if (chosen < 0) {
      op.link_idle_at = op.version;
      continue;
    }
    OutputVc& ov = op.vcs[chosen];
    OutPacket& f = ov.q.front();
    if (track_waiting_ && f.sent == 0) f.pkt->queued += static_cast<int32_t>(now - f.entered);
    Flit flit{f.pkt, static_cast<uint16_t>(chosen), f.sent == 0, f.sent + 1 == f.size, f.size, f.vc_class};
    if (__builtin_expect(net_->tracing(), 0) && flit.head && f.pkt->traced) trace_departure(*f.pkt, o, chosen, now);
    op.link->send_flit(now, flit);
    wake(op.link->downstream_slot, now + op.link->latency());
    count_hop(now);
    --ov.credits;
    --ov.occupancy;
    bump(op);
    --op.queued;
    --buffered_flits_;
    ++f.sent;
    if (f.sent == f.size) {
      ov.q.pop_front();
      if (ov.q.empty()) op.filled &= ~(1u << chosen);
    }
    op.rr = (chosen % params_.vcs_per_class + 1) % params_.vcs_per_class;
  }
}

bool Router::drop_waiting(const InPacket& e, Cycle now) {
  return e.ready <= now && net_->congestion().drop_waiting(*this, *e.pkt, e.pkt->queued + (now - e.ready));
}

void Router::drop_front(Cycle now, int p, int v, int q) {
  InputPort& ip = in_[p];
  InputVc& vc = ip.vcs[v];
  HeadFifo<InPacket>& fq = vc.queues[q];
  const InPacket e = fq.front();  // no output VC yet: nothing held downstream
  pop_front_packet(now, p, v, q);
  const int flits = arrived(vc, e);
  for (int i = 0; i < flits; ++i) {
    ip.link->send_credit(now, v);
    net_->flit_discarded();
  }
  vc.occupancy -= flits;
  ip.flits -= flits;
  buffered_flits_ -= flits;
  if (flits < e.size)
    vc.discarding = true;  // it is `arriving`: receive() discards the rest and reports the drop
  else
    net_->dropped(*this, e.pkt, now);
}

void Router::pop_front_packet(Cycle now, int p, int v, int q) {
  InputPort& ip = in_[p];
  InputVc& vc = ip.vcs[v];
  HeadFifo<InPacket>& fq = vc.queues[q];
  if (queue_events_) net_->routing().on_tail_left(*this, p, *fq.front().pkt);
  fq.pop_front();
  blocked_at(p, v, q) = 0;
  vc.blocked &= ~(uint64_t{1} << q);
  vc.has_vc &= ~(uint64_t{1} << q);
  if (!vc.has_vc) ip.has_vc &= ~(1u << v);
  --ip.packets;
  if (fq.empty()) {
    vc.nonempty &= ~(uint64_t{1} << q);
    if (!vc.nonempty) ip.busy &= ~(1u << v);
  } else {
    fq.front().front = static_cast<uint32_t>(now);
    ip.need_va |= 1u << v;  // the next packet needs an output VC
    if (queue_events_) net_->routing().on_head_at_front(*this, p, *fq.front().pkt);
  }
}

bool Router::output_vc_free(int port, int vc) {
  OutputPort& op = out_[port];
  absorb_credits(op, net_->now());
  const OutputVc& ov = op.vcs[vc];
  return !ov.locked && ov.occupancy == 0 && ov.credits == op.downstream_depth;
}

bool Router::rescue(Cycle now, InPacket& e) {
  const Cycle front = now - static_cast<uint32_t>(static_cast<uint32_t>(now) - e.front);
  if (e.ready > now || now - std::max(e.ready, front) < recovery_timeout_) return false;
  if (e.out_port >= 0 && out_[e.out_port].kind == PortKind::Terminal) return false;  // ejection always drains
  if (!recovery_->try_capture(id_, now)) return false;
  e.route = Route::Recovery;
  e.out_port = -1;
  return true;
}

void Router::drain_rescued(Cycle now) {
  InputPort& ip = in_[rescued_.port];
  InputVc& vc = ip.vcs[rescued_.vc];
  HeadFifo<InPacket>& q = vc.queues[rescued_.queue];
  InPacket& e = q.front();
  assert(e.route == Route::Recovery);
  if (arrived(vc, e) <= e.sent) return;  // its next flit is still upstream
  ++e.sent;
  --vc.occupancy;
  --ip.flits;
  --buffered_flits_;
  ip.link->send_credit(now, rescued_.vc);
  const bool tail = e.sent == e.size;
  recovery_->lane_flit(id_, e.pkt, tail, now);
  if (!tail) return;
  pop_front_packet(now, rescued_.port, rescued_.vc, rescued_.queue);
  rescued_.port = -1;
}

int Router::input_flits(int port, int vc) const { return in_[port].vcs[vc].occupancy; }

int Router::input_queue_flits(int port) const { return in_[port].flits; }

int Router::output_flits(int port, int vc) const { return out_[port].vcs[vc].occupancy; }

const Packet& Router::input_packet(int port, int k) const {
  for (auto& vc : in_[port].vcs)
    for (auto& q : vc.queues) {
      if (k < static_cast<int>(q.size())) return *q[k].pkt;
      k -= static_cast<int>(q.size());
    }
  throw std::out_of_range(fmt::format("router {}: input port {} holds no packet {}", id_, port, k));
}

const Packet* Router::output_head(int port) const {
  const OutPacket* head = nullptr;
  for (auto& vc : out_[port].vcs)
    if (!vc.q.empty() && (!head || vc.q.front().entered < head->entered)) head = &vc.q.front();
  return head ? head->pkt : nullptr;
}

int Router::blocked_input(int& vc_out, int& out_port) const {
  for (int p = 0; p < radix_; ++p)
    for (int v = 0; v < static_cast<int>(in_[p].vcs.size()); ++v)  // none on unconnected ports
      for (auto& q : in_[p].vcs[v].queues)
        if (!q.empty()) {
          vc_out = v;
          out_port = q.front().out_port;
          return p;
        }
  return -1;
}

}  // namespace ccsim
