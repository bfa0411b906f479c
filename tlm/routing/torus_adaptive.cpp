// routing.algorithm = "adaptive" on the torus and the mesh: fully adaptive
// minimal routing on every VC, the deadlock-recovery configuration of
// ../shared/papers/004 section 5.1 ("full adaptive routing on all virtual
// channels"). Its channel dependencies close cycles, so it runs only with
// routing.deadlock = "recovery" (Disha-style, tlm/core/deadlock_recovery.h).
// At every router the packet takes the productive port with an allocatable VC
// (room downstream), the least occupied one (random among equals); if there is
// none, the least occupied productive port, and it chooses again next cycle.
// VCs are allocated atomically under wormhole (one packet per VC buffer, as in
// a classic wormhole router), so a blocked packet's head is always at the
// front of its input VC, where the recovery timeout watches it.
#include "registry.h"
#include "routing/torus_routing.h"

namespace ccsim {
namespace {

class TorusAdaptive : public TorusRouting {
 public:
  using TorusRouting::TorusRouting;
  int vc_slots() const override { return 1; }
  bool reroutes_when_blocked() const override { return true; }
  bool atomic_vc_allocation(int) const override { return true; }
  bool needs_recovery() const override { return true; }
  RouteResult route(RouterContext& ctx, int in_port, Packet& p) override {
    if (!at_destination(ctx.router_id(), p)) ++p.hops;
    return reroute(ctx, in_port, p);
  }
  RouteResult reroute(RouterContext& ctx, int, Packet& p) override {
    const int r = ctx.router_id();
    if (at_destination(r, p)) return {eject_port(p), 0};
    int ports[kMaxProductivePorts];
    const int n = productive_ports(r, p, ports);
    int best = -1, best_occupancy = 0, ties = 0;
    bool best_free = false;
    for (int i = 0; i < n; ++i) {
      const bool free = ctx.vc_available(ports[i], 0, p);
      const int occ = ctx.occupancy(ports[i]);
      if (best < 0 || (free && !best_free) || (free == best_free && occ < best_occupancy)) {
        best = ports[i];
        best_occupancy = occ;
        best_free = free;
        ties = 1;
      } else if (free == best_free && occ == best_occupancy && ctx.rng().below(static_cast<uint32_t>(++ties)) == 0) {
        best = ports[i];
      }
    }
    return {best, 0};
  }
};

}  // namespace

static RoutingEntry adaptive_variant(const std::string& topology) {
  return {
      "adaptive",
      topology,
      "fully adaptive minimal routing on every VC (004's recovery configuration); can deadlock: needs "
      "routing.deadlock = recovery; re-routes blocked packets (not with router.voq)",
      {},
      [](const Config&, const Topology& t) { return std::make_unique<TorusAdaptive>(dynamic_cast<const Torus&>(t)); }};
}

RoutingEntry torus_adaptive_entry() { return adaptive_variant("torus"); }
RoutingEntry mesh_adaptive_entry() { return adaptive_variant("mesh"); }

}  // namespace ccsim
