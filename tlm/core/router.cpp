#include "core/router.h"

#include <algorithm>
#include <cassert>

#include "core/network.h"

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
  std::stable_sort(class_order_.begin(), class_order_.end(), [&](int x, int y) {
    return params_.class_priority[x] > params_.class_priority[y];
  });
  requests_.resize(radix);
}

void Router::connect(int port, PortKind kind, Link* in, int input_depth, Link* out, int downstream_depth) {
  InputPort& ip = in_[port];
  ip.link = in;
  ip.depth = input_depth;
  ip.vcs.assign(num_vcs_, InputVc{});
  for (auto& vc : ip.vcs) vc.queues.resize(queue_count());
  OutputPort& op = out_[port];
  op.link = out;
  op.kind = kind;
  op.downstream_depth = downstream_depth;
  op.vcs.assign(num_vcs_, OutputVc{});
  for (auto& vc : op.vcs) vc.credits = downstream_depth;
}

int Router::occupancy(int port) {
  // Credits that have arrived but were not yet absorbed still count as free.
  OutputPort& op = out_[port];
  if (op.link) {
    const Cycle now = net_->now();
    while (op.link->credit_ready(now)) ++op.vcs[op.link->take_credit()].credits;
  }
  int occ = op.queued;
  for (int v = 0; v < params_.vcs_per_class; ++v) occ += op.downstream_depth - op.vcs[v].credits;
  return occ;
}

int Router::remote_occupancy(int router, int port) { return net_->router(router).occupancy(port); }

void Router::step(Cycle now) {
  receive(now);
  if (buffered_flits_ > 0) {
    allocate_vcs(now);
    traverse_switch(now);
    send_links(now);
  }
  if (buffered_flits_ > 0) net_->scheduler().wake(this, now + 1);
}

void Router::receive(Cycle now) {
  for (int p = 0; p < radix_; ++p) {
    OutputPort& op = out_[p];
    if (op.link) {
      while (op.link->credit_ready(now)) ++op.vcs[op.link->take_credit()].credits;
    }
    InputPort& ip = in_[p];
    if (!ip.link) continue;
    while (ip.link->flit_ready(now)) {
      Flit f = ip.link->take_flit();
      InputVc& vc = ip.vcs[f.vc];
      if (f.head) {
        InPacket e{f.pkt, now + params_.latency, 1, 0, -1, -1};
        int q = 0;
        if (params_.voq) {
          RouteResult r = net_->routing().route(*this, p, *f.pkt);
          e.out_port = static_cast<int16_t>(r.port);
          e.out_vc = static_cast<int16_t>(-2 - r.slot);  // routed, VC not yet allocated
          q = r.port;
          vc.nonempty |= uint64_t{1} << q;
        }
        vc.queues[q].push_back(e);
        vc.last_queue = q;
        ++ip.packets;
      } else {
        ++vc.queues[vc.last_queue].back().arrived;
      }
      ++vc.occupancy;
      ++buffered_flits_;
      assert(vc.occupancy <= ip.depth && "credit protocol violated");
    }
  }
}

// out_vc encoding in InPacket: -1 not routed; <= -2 routed with slot (-2 - out_vc); >= 0 allocated.
bool Router::try_allocate(Cycle now, int in_port, int in_vc, int queue, InPacket& e) {
  if (e.ready > now) return false;
  if (e.out_vc == -1) {
    RouteResult r = net_->routing().route(*this, in_port, *e.pkt);
    e.out_port = static_cast<int16_t>(r.port);
    e.out_vc = static_cast<int16_t>(-2 - r.slot);
  }
  const int slot = -2 - e.out_vc;
  OutputPort& op = out_[e.out_port];
  const int cls = e.pkt->vc_class;
  const int base = cls * params_.vcs_per_class;
  const int need = params_.cut_through ? e.pkt->size : 1;
  int best = -1, best_free = -1;
  for (int v = slot; v < params_.vcs_per_class; v += params_.vc_slots) {
    OutputVc& ov = op.vcs[base + v];
    if (ov.locked) continue;
    const int free = params_.output_buffer - ov.occupancy - ov.reserved;
    if (free < need) continue;
    // Prefer the VC with most free space downstream (then in the queue).
    const int score = ov.credits * 4096 + free;
    if (score > best_free) {
      best_free = score;
      best = base + v;
    }
  }
  if (best < 0) return false;
  OutputVc& ov = op.vcs[best];
  ov.locked = true;
  ov.reserved = e.pkt->size;
  e.out_vc = static_cast<int16_t>(best);
  (void)in_vc;
  (void)queue;
  return true;
}

void Router::allocate_vcs(Cycle now) {
  // Inputs are visited from a rotating start so no input is favoured.
  const int start = va_start_;
  va_start_ = va_start_ + 1 == radix_ ? 0 : va_start_ + 1;
  for (int cls : class_order_) {
    const int vbase = cls * params_.vcs_per_class;
    for (int k = 0; k < radix_; ++k) {
      const int p = start + k < radix_ ? start + k : start + k - radix_;
      InputPort& ip = in_[p];
      if (ip.packets == 0) continue;
      for (int v = vbase; v < vbase + params_.vcs_per_class; ++v) {
        InputVc& vc = ip.vcs[v];
        if (vc.occupancy == 0 && !params_.voq && vc.queues[0].empty()) continue;
        if (params_.voq) {
          for (uint64_t m = vc.nonempty; m; m &= m - 1) {
            const int q = __builtin_ctzll(m);
            InPacket& e = vc.queues[q].front();
            if (e.out_vc < 0) try_allocate(now, p, v, q, e);
          }
        } else if (!vc.queues[0].empty()) {
          InPacket& e = vc.queues[0].front();
          if (e.out_vc < 0) try_allocate(now, p, v, 0, e);
        }
      }
    }
  }
}

void Router::traverse_switch(Cycle now) {
  for (auto& op : out_) op.accepted = 0;
  for (int round = 0; round < params_.speedup; ++round) {
    // Input stage: each input port picks one of its VCs (priority class, then round robin).
    bool any = false;
    for (int p = 0; p < radix_; ++p) {
      Request& r = requests_[p];
      r.out_port = -1;
      InputPort& ip = in_[p];
      if (ip.packets == 0) continue;
      for (int cls : class_order_) {
        const int vbase = cls * params_.vcs_per_class;
        const int n = params_.vcs_per_class;
        for (int k = 0; k < n && r.out_port < 0; ++k) {
          const int v = vbase + (ip.rr + k) % n;
          InputVc& vc = ip.vcs[v];
          if (vc.occupancy == 0) continue;
          auto consider = [&](int q) {
            InPacket& e = vc.queues[q].front();
            if (e.out_vc < 0 || e.arrived <= e.sent) return false;
            OutputPort& op = out_[e.out_port];
            if (op.accepted >= params_.speedup) return false;
            OutputVc& ov = op.vcs[e.out_vc];
            if (!params_.cut_through && ov.occupancy + 1 > params_.output_buffer) return false;
            r = {v, q, e.out_port, params_.class_priority[cls]};
            return true;
          };
          if (params_.voq) {
            for (uint64_t m = vc.nonempty; m; m &= m - 1)
              if (consider(__builtin_ctzll(m))) break;
          } else if (!vc.queues[0].empty()) {
            consider(0);
          }
        }
        if (r.out_port >= 0) break;
      }
      any |= r.out_port >= 0;
    }
    if (!any) break;
    // Output stage: each output grants up to its remaining speedup, highest
    // priority first, round robin among inputs.
    for (int o = 0; o < radix_; ++o) {
      OutputPort& op = out_[o];
      for (int pass = 0; pass < 2 && op.accepted < params_.speedup; ++pass) {
        for (int k = 0; k < radix_ && op.accepted < params_.speedup; ++k) {
          const int p = (op.sa_rr + k) % radix_;
          Request& r = requests_[p];
          if (r.out_port != o) continue;
          // pass 0 serves the highest priority present among requests to o.
          if (pass == 0 && r.priority < params_.class_priority[class_order_[0]]) continue;
          // Grant: move one flit from input (p, r.vc, r.queue) to output o.
          InputPort& ip = in_[p];
          InputVc& vc = ip.vcs[r.vc];
          Fifo<InPacket>& q = vc.queues[r.queue];
          InPacket& e = q.front();
          OutputVc& ov = op.vcs[e.out_vc];
          if (e.sent == 0) {
            ov.q.push_back({e.pkt, 0, 0});
            if (net_->cc_switch_hook()) net_->congestion().on_switch_forward(*this, *e.pkt, o, now);
          }
          ++ov.q.back().arrived;
          ++ov.occupancy;
          --ov.reserved;
          ++op.queued;
          ++op.accepted;
          ++e.sent;
          --vc.occupancy;
          ip.link->send_credit(now, r.vc);
          if (e.sent == e.pkt->size) {
            ov.locked = false;
            q.pop_front();
            --ip.packets;
            if (q.empty()) vc.nonempty &= ~(uint64_t{1} << r.queue);
          }
          ip.rr = (r.vc % params_.vcs_per_class + 1) % params_.vcs_per_class;
          op.sa_rr = (p + 1) % radix_;
          r.out_port = -1;
        }
      }
    }
  }
}

void Router::send_links(Cycle now) {
  for (int o = 0; o < radix_; ++o) {
    OutputPort& op = out_[o];
    if (op.queued == 0) continue;
    int chosen = -1;
    for (int cls : class_order_) {
      const int vbase = cls * params_.vcs_per_class;
      const int n = params_.vcs_per_class;
      for (int k = 0; k < n; ++k) {
        const int v = vbase + (op.rr + k) % n;
        OutputVc& ov = op.vcs[v];
        if (ov.q.empty()) continue;
        OutPacket& f = ov.q.front();
        if (f.arrived <= f.sent) continue;
        const int need = f.sent == 0 ? (params_.cut_through ? f.pkt->size : 1) : 1;
        if (ov.credits < need) continue;
        chosen = v;
        break;
      }
      if (chosen >= 0) break;
    }
    if (chosen < 0) continue;
    OutputVc& ov = op.vcs[chosen];
    OutPacket& f = ov.q.front();
    Flit flit{f.pkt, static_cast<uint16_t>(chosen), f.sent == 0, f.sent + 1 == f.pkt->size};
    op.link->send_flit(now, flit);
    net_->scheduler().wake(op.link->downstream, now + op.link->latency());
    net_->count_flit_hop(now);
    --ov.credits;
    --ov.occupancy;
    --op.queued;
    --buffered_flits_;
    ++f.sent;
    if (f.sent == f.pkt->size) ov.q.pop_front();
    op.rr = (chosen % params_.vcs_per_class + 1) % params_.vcs_per_class;
  }
}

int Router::input_flits(int port, int vc) const { return in_[port].vcs[vc].occupancy; }

int Router::output_flits(int port, int vc) const { return out_[port].vcs[vc].occupancy; }

int Router::blocked_input(int& vc_out, int& out_port) const {
  for (int p = 0; p < radix_; ++p)
    for (int v = 0; v < num_vcs_; ++v)
      for (auto& q : in_[p].vcs[v].queues)
        if (!q.empty()) {
          vc_out = v;
          out_port = q.front().out_port;
          return p;
        }
  return -1;
}

}  // namespace ccsim
