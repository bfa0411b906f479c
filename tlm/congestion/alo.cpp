#include "congestion/alo.h"

#include "core/network.h"

namespace ccsim {

void Alo::attach(Network& net) {
  CongestionControl::attach(net);
  const Topology& t = net.topology();
  neighbours_.resize(t.num_routers());
  for (int r = 0; r < t.num_routers(); ++r)
    for (int o = 0; o < t.radix(r); ++o) {
      const PortPeer pp = t.peer(r, o);
      if (pp.id >= 0 && !pp.is_node) neighbours_[r].push_back({o, pp.id});
    }
}

bool Alo::may_inject(Nic& nic, Packet& p, Cycle) {
  const Topology& t = net_->topology();
  const int r = t.node_router(nic.id()), dr = t.node_router(p.dst);
  if (r == dr) return true;
  ++checks_;
  Router& rt = net_->router(r);
  const int vcs = rt.num_vcs() / static_cast<int>(vc_classes().size());
  const int base = p.vc_class * vcs;
  const int dist = t.min_hops(r, dr);
  bool every_has_one = true, some_all_free = false;
  for (const Neighbour& nb : neighbours_[r]) {
    if (t.min_hops(nb.router, dr) != dist - 1) continue;
    int free = 0;
    for (int v = 0; v < vcs; ++v) free += rt.output_vc_free(nb.port, base + v);
    if (free == 0) every_has_one = false;
    if (free == vcs) some_all_free = true;
  }
  if (every_has_one || some_all_free) return true;
  ++held_;
  return false;
}

nlohmann::json Alo::stats() const { return {{"checks", checks_}, {"held", held_}}; }

}  // namespace ccsim
