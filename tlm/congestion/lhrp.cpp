#include "congestion/lhrp.h"

#include <algorithm>

#include "core/network.h"
#include "core/nic.h"
#include "core/router.h"

namespace ccsim {

Lhrp::Lhrp(const Config& cfg) {
  block_.drop_threshold = static_cast<int>(cfg.get_int("congestion.lhrp_threshold"));
  block_.threshold_strict = cfg.get_bool("congestion.lhrp_strict");
}

void Lhrp::attach(Network& net) {
  CongestionControl::attach(net);
  const Topology& t = net.topology();
  block_.num_endpoints = 1;
  for (int n = 0; n < t.num_nodes(); ++n) block_.num_endpoints = std::max(block_.num_endpoints, t.node_port(n) + 1);
  schedulers_.assign(t.num_routers(), blocks::LastHopScheduler(block_));
  ticked_.assign(t.num_routers(), -1);
}

// The block registers the counts at a clock edge; the routers step only when
// busy, so its edge is taken lazily, once per cycle in which it is used.
blocks::LastHopScheduler& Lhrp::scheduler(int r, Cycle now) {
  if (ticked_[r] < now) {
    schedulers_[r].tick();
    ticked_[r] = now;
  }
  return schedulers_[r];
}

bool Lhrp::on_switch_arrival(Router& r, Packet& p, int, Cycle now) {
  const Topology& t = net_->topology();
  if (t.node_router(p.dst) != r.id()) return false;
  const int e = t.node_port(p.dst);
  blocks::LastHopScheduler& s = scheduler(r.id(), now);
  if (p.kind == PacketKind::Data && p.vc_class == kSpeculativeClass) {
    ++speculative_;
    const auto d = s.speculative_head(e, static_cast<uint32_t>(p.size), static_cast<uint64_t>(now));
    if (d.drop) {
      p.cc_value = static_cast<int64_t>(d.grant_time);
      return true;
    }
  }
  s.enqueue(e, static_cast<uint32_t>(p.size));
  return false;
}

void Lhrp::on_eject(const Packet& p, Cycle now) {
  const Topology& t = net_->topology();
  scheduler(t.node_router(p.dst), now).dequeue(t.node_port(p.dst), 1);
}

// The last-hop switch sends the NACK with the retransmission time; it enters
// the network through the injection channel of the endpoint it answers for.
void Lhrp::on_drop(Router&, Packet& p, Cycle now) {
  Packet* nack = net_->new_control(PacketKind::Nack, p.dst, p.src, kAckClass, p, now);
  nack->cc_value = p.cc_value;
  net_->nic(p.dst).send_control(nack, now);
}

void Lhrp::on_control(Nic& nic, Packet& c, Cycle now) {
  if (c.kind != PacketKind::Nack) return;
  ++nacks_;
  Packet* p = net_->reclaim(c.ref);
  p->vc_class = kDataClass;
  p->cc_flags |= kResend;
  p->cc_value = c.cc_value;
  net_->resend(nic.id(), p, now);
}

nlohmann::json Lhrp::stats() const {
  return {{"speculative_at_last_hop", speculative_}, {"nacks", nacks_},
          {"threshold", block_.drop_threshold}};
}

}  // namespace ccsim
