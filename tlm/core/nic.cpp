#include "core/nic.h"

#include "core/message.h"
#include "core/network.h"

#include <algorithm>
#include <functional>

namespace ccsim {

Nic::Nic(sc_core::sc_module_name name, int id, Network* net)
    : sc_core::sc_module(name), socket("socket"), id_(id), net_(net) {
  socket.register_b_transport(this, &Nic::b_transport);
}

void Nic::connect(Link* to_router, int router_depth, int num_vcs, int vcs_per_class, Link* from_router) {
  out_ = to_router;
  in_ = from_router;
  credits_.assign(num_vcs, router_depth);
  vcs_per_class_ = vcs_per_class;
}

// The send queue of `dst`, made (and put in the round robin) if there is none.
int Nic::queue_for(int dst) {
  int slot = dest_slot_.find(dst);
  if (slot != FlatIntMap::kEmpty) return slot;
  if (free_slots_.empty()) {
    slot = static_cast<int>(dests_.size());
    dests_.emplace_back();
  } else {
    slot = free_slots_.back();
    free_slots_.pop_back();
  }
  dest_slot_.insert(dst, slot);
  dests_[slot].dst = dst;
  active_.push_back(slot);
  return slot;
}

void Nic::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const auto* req = reinterpret_cast<const MessageRequest*>(trans.get_data_ptr());
  const Cycle now = net_->now();
  if (net_->source_queue() > 0 && queued_packets_ + req->packets > net_->source_queue()) {
    net_->message_refused(*req, now);  // no room: the attempt is over (not an error of the initiator)
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  const PacketLedger::MessageRef msg = net_->new_message(id_, *req, now);
  DestQueue& dq = dests_[queue_for(req->dst)];
  for (int i = 0; i < req->packets; ++i) dq.packets.push_back(net_->new_packet(msg, id_, *req, now));
  queued_packets_ += req->packets;
  net_->scheduler().wake(this, now);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  (void)delay;
}

void Nic::step(Cycle now) {
  take_arrivals(now);
  deliver_arrivals(now);
  send(now);
  wake_if_busy(now);
}

void Nic::wake_if_busy(Cycle now) {
  if (sending_ || queued_packets_ > 0 || !control_.empty()) wake(slot, now + 1);
}

void Nic::wake(int32_t target, Cycle at) {
  if (deferred_)
    deferred_->wakes.push_back({target, at});
  else
    net_->scheduler().wake_slot(target, at);
}

void Nic::take_arrivals(Cycle now) {
  while (out_->credit_ready(now)) ++credits_[out_->take_credit()];
  while (in_->flit_ready(now)) {
    Flit f = in_->take_flit();
    in_->send_credit(now, f.vc);  // the sink consumes a flit per cycle
    ejected_.push_back({f.pkt, f.tail});
  }
}

void Nic::deliver_arrivals(Cycle now) {
  for (const Ejected& e : ejected_) {
    net_->flit_ejected(*e.p, now);
    if (e.tail) net_->deliver(*this, e.p, now);
  }
  ejected_.clear();
}

void Nic::send(Cycle now) {
  if (!timed_.empty()) release_due(now);
  inject(now);
}

// Injection VC: any VC of the packet's class with room (whole packet under VCT).
int Nic::free_vc(const Packet& p) {
  const int base = p.vc_class * vcs_per_class_;
  const int need = net_->cut_through() ? p.size : 1;
  for (int k = 0; k < vcs_per_class_; ++k) {
    const int v = base + (vc_rr_ + k) % vcs_per_class_;
    if (credits_[v] >= need) {
      vc_rr_ = (v - base + 1) % vcs_per_class_;
      return v;
    }
  }
  return -1;
}

void Nic::requeue(Packet* p, Cycle at, Cycle now) {
  if (at > now) {
    timed_.push_back({at, p});
    std::push_heap(timed_.begin(), timed_.end(), std::greater<>());
    wake(slot, at);
    return;
  }
  DestQueue& dq = dests_[queue_for(p->dst)];
  dq.packets.push_front(p);
  ++queued_packets_;
  wake(slot, now);
}

void Nic::release_due(Cycle now) {
  while (!timed_.empty() && timed_.front().at <= now) {
    Packet* p = timed_.front().p;
    std::pop_heap(timed_.begin(), timed_.end(), std::greater<>());
    timed_.pop_back();
    requeue(p, now, now);
  }
}

void Nic::send_control(Packet* p, Cycle now) {
  control_.push_back(p);
  wake(slot, now);
}

Packet* Nic::next_packet(Cycle now, int& vc_out) {
  // Round robin over destinations, one packet per turn; a destination whose
  // head packet the congestion control holds back is skipped this cycle.
  // One message at a time (traffic.source_order): a turn is a whole message,
  // and a held packet holds the interface.
  const bool whole_messages = net_->one_message_at_a_time();
  for (size_t tries = active_.size(); tries > 0; --tries) {
    const int slot = active_.front();
    DestQueue& dq = dests_[slot];
    Packet* p = dq.packets.front();
    if (!net_->congestion().may_inject(*this, *p, now)) {
      if (whole_messages) return nullptr;
      active_.pop_front();
      active_.push_back(slot);
      continue;
    }
    const int vc = free_vc(*p);
    if (vc < 0) return nullptr;  // wait for credits; keep the round-robin position
    dq.packets.pop_front();
    --queued_packets_;
    const bool turn_goes_on =  // with the message's next packet
        whole_messages && !dq.packets.empty() && dq.packets.front()->message_id == p->message_id;
    if (!turn_goes_on) {
      active_.pop_front();
      if (dq.packets.empty()) {
        dest_slot_.erase(dq.dst);
        free_slots_.push_back(slot);
      } else {
        active_.push_back(slot);
      }
    }
    vc_out = vc;
    return p;
  }
  return nullptr;
}

void Nic::inject(Cycle now) {
  if (!sending_) {
    int vc = -1;
    Packet* p = nullptr;
    if (!control_.empty() && (vc = free_vc(*control_.front())) >= 0) {
      p = control_.front();
      control_.pop_front();
    } else if (!active_.empty()) {
      p = next_packet(now, vc);
    }
    if (!p) return;
    sending_ = p;
    sent_flits_ = 0;
    send_vc_ = vc;
    p->injected = now;
    if (__builtin_expect(net_->tracing(), 0) && p->traced) net_->packet_trace()->injected(*p, now);
    net_->congestion().on_inject(*this, *p, now);
  }
  if (credits_[send_vc_] < 1) return;
  Flit f{sending_,
         static_cast<uint16_t>(send_vc_),
         sent_flits_ == 0,
         sent_flits_ + 1 == sending_->size,
         static_cast<uint16_t>(sending_->size),
         static_cast<uint8_t>(sending_->vc_class)};
  out_->send_flit(now, f);
  wake(out_->downstream_slot, now + out_->latency());
  if (deferred_) {
    ++deferred_->hops;
  } else {
    net_->count_flit_hops(1, now);
    net_->flit_injected();
  }
  --credits_[send_vc_];
  if (++sent_flits_ == sending_->size) sending_ = nullptr;
}

}  // namespace ccsim
