// routing.algorithm = "duato" on the torus and the mesh: Duato's fully
// adaptive minimal routing (IEEE TPDS 1993), the deadlock-avoidance
// configuration of ../shared/papers/004 section 5.1.
//
// VCs of each class: escape VCs 0 and 1 (one on a mesh) carry DOR with the
// dateline rule (tlm/routing/torus_routing.h); all other VCs are adaptive: any
// productive port. At every router, a packet takes the productive port whose
// adaptive VC can be allocated now with room downstream, the least occupied
// one (random among equals); if there is none, it takes its DOR hop on the
// escape VC. Packets may leave the escape VCs again at the next router. The
// routing function asks to be re-routed when its choice cannot be allocated,
// so a blocked packet tries the adaptive ports and the escape every cycle.
// Deadlock freedom (Duato's condition): the escape VCs' dependencies, direct
// and through adaptive hops in between, are those of DOR, which is acyclic.
#include "registry.h"
#include "routing/torus_routing.h"

namespace ccsim {
namespace {

class TorusDuato : public TorusRouting {
 public:
  using TorusRouting::TorusRouting;
  int vc_slots() const override { return adaptive_slot() + 1; }
  int escape_slots() const override { return adaptive_slot(); }
  uint32_t slot_vcs(int slot, int vcs_per_class) const override {
    if (slot < adaptive_slot()) return 1u << slot;
    const uint32_t all = vcs_per_class >= 32 ? ~0u : (1u << vcs_per_class) - 1;
    return all & ~((1u << adaptive_slot()) - 1);
  }
  bool reroutes_when_blocked() const override { return true; }
  bool atomic_vc_allocation(int slot) const override { return slot == adaptive_slot(); }
  RouteResult route(RouterContext& ctx, int in_port, Packet& p) override {
    if (!at_destination(ctx.router_id(), p)) ++p.hops;
    return reroute(ctx, in_port, p);
  }
  RouteResult reroute(RouterContext& ctx, int, Packet& p) override {
    const int r = ctx.router_id();
    if (at_destination(r, p)) return eject(ctx, p);
    const int best = least_occupied_available(ctx, p, adaptive_slot());
    if (best >= 0) return {best, adaptive_slot()};
    return dor(r, p);
  }

 private:
  int adaptive_slot() const { return dor_slots(); }
  // Ejection cannot close a cycle: any VC with room will do, adaptive first.
  RouteResult eject(RouterContext& ctx, const Packet& p) const {
    const int port = eject_port(p);
    for (int slot = adaptive_slot(); slot >= 0; --slot)
      if (ctx.vc_available(port, slot, p)) return {port, slot};
    return {port, adaptive_slot()};
  }
};

}  // namespace

static RoutingEntry duato_variant(const std::string& topology) {
  const bool torus = topology == "torus";
  return {"duato",
          topology,
          torus ? "Duato: fully adaptive minimal on VCs 2 and up, escape DOR with dateline on VCs 0 and 1; "
                  "needs 3 VCs; re-routes blocked packets (not with router.voq)"
                : "Duato: fully adaptive minimal on VCs 1 and up, escape DOR on VC 0; needs 2 VCs; re-routes "
                  "blocked packets (not with router.voq)",
          {},
          [](const Config&, const Topology& t) { return std::make_unique<TorusDuato>(dynamic_cast<const Torus&>(t)); }};
}

RoutingEntry torus_duato_entry() { return duato_variant("torus"); }
RoutingEntry mesh_duato_entry() { return duato_variant("mesh"); }

}  // namespace ccsim
