// Shared machinery of the k-ary n-cube routing algorithms (torus and mesh):
// dimension-order routing (DOR) with dateline VC slots, and the productive
// ports of minimal adaptive routing.
//
// DOR corrects dimensions in the order 0, 1, ..., n-1, each the shorter way
// round. When both ways are k/2 channels long, the parity of the current
// coordinate picks the way (even: +), so tied packets split evenly between the
// two rings; after the first hop the way is no longer tied.
//
// Dateline (Dally & Seitz): every ring is cut at its wrap-around channel
// (between x = k-1 and x = 0). A hop in a ring uses slot 0 while the packet's
// way in this dimension still includes the wrap-around channel (that channel
// included) and slot 1 once it does not, which holds from the start for
// packets that never take it. This is a function of position and destination
// alone: going +, the wrap-around channel is ahead iff x > x_dst; going -, iff
// x < x_dst. In a ring, the slot-0 channels then depend on each other only up
// to the wrap-around channel and the slot-1 channels never include it; slot 0
// leads only to slot 1, so no cycle closes. Dimensions are taken in increasing
// order, so the two slots are shared by all dimensions. A mesh has no
// wrap-around channels and needs one slot.
#pragma once
#include "routing/routing.h"
#include "topology/torus.h"

namespace ccsim {

class TorusRouting : public RoutingFunction {
 public:
  explicit TorusRouting(const Torus& t) : t_(t) {}
  bool honours_minimal_only() const override { return true; }  // every torus and mesh algorithm is minimal

 protected:
  static constexpr int kMaxProductivePorts = 64;
  // VC slots of DOR: 2 on a torus (dateline), 1 on a mesh.
  int dor_slots() const { return t_.wrap() ? 2 : 1; }
  bool at_destination(int router, const Packet& p) const { return router == t_.node_router(p.dst); }
  int eject_port(const Packet& p) const { return t_.node_port(p.dst); }
  // The DOR hop from `router`, which is not the destination's router.
  RouteResult dor(int router, const Packet& p) const;
  // Output ports that bring `p` one channel closer to its destination (both
  // ways of a tied dimension); `router` is not the destination's router.
  // Returns how many were written to `ports` (at most 2n).
  int productive_ports(int router, const Packet& p, int* ports) const;
  // The productive port whose VC of `slot` can be allocated now, the least
  // occupied (random among equals); -1: none.
  int least_occupied_available(RouterContext& ctx, const Packet& p, int slot) const;

  const Torus& t_;
};

}  // namespace ccsim
