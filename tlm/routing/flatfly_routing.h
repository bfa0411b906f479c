// Shared machinery of the flattened-butterfly routing algorithms: dimension-
// order (DOR) next hops, Valiant intermediates and deadlock-free VC slots.
//
// VC slot = routing phase. MIN has one phase (0): DOR on slot 0. VAL and UGAL
// route a Valiant packet by DOR to its intermediate router on slot 0 (phase 0),
// then by DOR to the destination on slot 1 (phase 1); a packet they route
// minimally is in phase 1 from its source. Within a phase DOR takes at most one
// channel per dimension, in increasing dimension order, so its channel
// dependencies only lead to higher dimensions; across phases they only lead
// from slot 0 to slot 1. The channel dependency graph is therefore acyclic.
#pragma once
#include "routing/routing.h"
#include "topology/flatfly.h"

namespace ccsim {

class FlatflyRouting : public RoutingFunction {
 public:
  FlatflyRouting(const FlattenedButterfly& fb, int slots) : fb_(fb), slots_(slots) {}
  int vc_slots() const override { return slots_; }
  bool honours_minimal_only() const override { return true; }  // non_minimal() checks the mark

 protected:
  int dst_router(const Packet& p) const { return fb_.node_router(p.dst); }
  // Next port on the DOR route from `router` to router `target`, or the
  // destination's terminal port once the packet is at its router.
  int port_towards(int router, int target, const Packet& p) const {
    return router == target ? fb_.node_port(p.dst) : fb_.dor_port(router, target);
  }
  // A Valiant intermediate for a packet at its source `router`, uniform over
  // all routers (specs A.4.2, A.4.3); -1 when the Valiant path is the minimal
  // one: destination on this router, the packet must go minimally
  // (Packet::minimal_only), or the draw hit the source or destination.
  int valiant_intermediate(RouterContext& ctx, int router, const Packet& p) const;
  // Router-to-router hops of the Valiant path router -> intermediate -> destination.
  int valiant_hops(int router, int intermediate, const Packet& p) const {
    return fb_.min_hops(router, intermediate) + fb_.min_hops(intermediate, dst_router(p));
  }
  // Fixes p's path at its source router: through `intermediate`, or minimal if -1.
  void start_path(Packet& p, int intermediate) const;
  // Continues a packet on its path: DOR to p.intermediate in phase 0, then DOR
  // to the destination in phase 1.
  RouteResult follow(RouterContext& ctx, Packet& p) const;
  // Records the hop through `port` in p's routing state; its VC slot is p's phase.
  RouteResult take(int router, int port, Packet& p) const;

  const FlattenedButterfly& fb_;

 private:
  int slots_;
};

}  // namespace ccsim
