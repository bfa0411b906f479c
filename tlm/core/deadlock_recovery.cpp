#include "core/deadlock_recovery.h"

#include "core/network.h"

namespace ccsim {

DeadlockRecovery::DeadlockRecovery(Network& net, Cycle timeout) : net_(net), timeout_(timeout) {}

bool DeadlockRecovery::try_capture(int router, Cycle now) {
  if (held_) return false;
  const int R = net_.num_routers();
  const int at = static_cast<int>((free_from_ + (now - free_since_)) % R);
  if (at != router) return false;
  held_ = true;
  held_since_ = now;
  ++rescues_;
  return true;
}

// Zero-load latency from router `from` to node `dst`'s NIC along a minimal path: per hop the
// link latency of its kind (local or global) plus the router's, then the terminal link.
Cycle DeadlockRecovery::path_delay(int from, int dst) const {
  const Topology& t = net_.topology();
  const int to = t.node_router(dst);
  Cycle d = t.terminal_latency;
  for (int r = from, hops = t.min_hops(from, to); hops > 0; --hops) {
    int p = 0;
    while (t.port_kind(r, p) == PortKind::Terminal || t.min_hops(t.peer(r, p).id, to) != hops - 1) ++p;
    d += t.latency(t.port_kind(r, p)) + net_.router_latency();
    r = t.peer(r, p).id;
  }
  return d;
}

void DeadlockRecovery::lane_flit(int router, Packet* p, bool tail, Cycle now) {
  const Cycle delay = path_delay(router, p->dst);
  lane_.push_back({now + delay, p, tail});
  ++lane_flits_;
  net_.count_flit_hops(1, now);
  net_.scheduler().wake(this, now + delay);
}

void DeadlockRecovery::step(Cycle now) {
  while (!lane_.empty() && lane_.front().at <= now) {
    const LaneFlit f = lane_.front();
    lane_.pop_front();
    Nic& nic = net_.nic(f.p->dst);
    net_.count_flit_hops(1, now);
    const int dst_router = net_.topology().node_router(f.p->dst);
    net_.flit_ejected(*f.p, now);
    if (f.tail) {
      net_.deliver(nic, f.p, now);
      held_ = false;
      held_cycles_ += now - held_since_;
      free_from_ = dst_router;
      free_since_ = now;
    }
  }
}

nlohmann::json DeadlockRecovery::stats() const {
  return {{"timeout", timeout_},
          {"rescued_packets", rescues_},
          {"lane_flits", lane_flits_},
          {"token_held_cycles", held_cycles_}};
}

}  // namespace ccsim
