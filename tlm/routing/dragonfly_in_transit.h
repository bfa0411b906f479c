// In-transit adaptive routing on the dragonfly with OLM's misrouting policy
// (paper 002 section IV-A; spec B.6), shared by OLM, Base, Hybrid and ECtN.
// Each router may take a packet off its minimal path at these points:
//  * Injection: at the source router, towards another group, through another
//    global port of this router (global misrouting, MM's CRG part);
//  * SourceTransit: at the next router of the source group after a minimal
//    local hop, through a local port to a random neighbour, which must then
//    leave the group through one of its own global ports (MM's NRG part);
//  * GroupEntry: at the first router of the intermediate or destination group
//    (or of the source group for traffic inside it), one local hop to a random
//    neighbour when the minimal hop is local (the "+L" of MM+L).
// Each algorithm decides whether to leave the minimal path and which of the
// allowed ports (those with a VC free for the whole packet now) it accepts;
// the packet takes one of those at random. The decision is taken once per
// router, when the packet is first routed there.
//
// VC template l l g l l g l l: at most two local hops in each group visited,
// 6 local / 2 global slots; slots grow along every path, so the channel
// dependency graph is acyclic (checked in tests/test_deadlock_freedom.cpp).
#pragma once
#include "routing/dragonfly_routing.h"

namespace ccsim {

class DragonflyInTransit : public DragonflyRouting {
 public:
  explicit DragonflyInTransit(const Dragonfly& df) : DragonflyRouting(df, {2, 2, 2}) {}
  RouteResult route(RouterContext& ctx, int in_port, Packet& p) final;

 protected:
  enum class Stage { Injection, SourceTransit, GroupEntry };
  // Whether a packet whose minimal output is `min_out` should leave it here.
  virtual bool misroute(RouterContext& ctx, const Packet& p, int min_out, Stage stage) = 0;
  // Whether the packet may take allowed port `port` instead.
  virtual bool accepts(RouterContext& ctx, const Packet& p, int min_out, Stage stage, int port) = 0;
  // OLM's congestion trigger and candidate rule (002 IV-A): the minimal
  // output's VCs have no room for the packet (FOGSim: credits below a packet),
  // and the occupancy of the VCs the packet would take on a candidate, as a
  // share of their depth (vc_room, vc_depth), is at most `percent` of that on
  // the minimal output (FOGSim compares per-VC occupancy percentages).
  bool minimal_blocked(RouterContext& ctx, const Packet& p, int min_out) const;
  bool much_less_occupied(RouterContext& ctx, const Packet& p, int port, int min_out, int percent) const;
  int slot_of_hop(int router, int port, const Packet& p) const;

 private:
  // A uniformly random port of [first, first+count) other than `skip1` and
  // `skip2` for which ok(port) holds; -1 if none.
  template <typename Ok>
  static int random_port(RouterContext& ctx, int first, int count, int skip1, int skip2, Ok&& ok) {
    int chosen = -1, seen = 0;
    for (int port = first; port < first + count; ++port)
      if (port != skip1 && port != skip2 && ok(port) && ctx.rng().below(static_cast<uint32_t>(++seen)) == 0)
        chosen = port;
    return chosen;
  }
  // A packet that misrouted locally at SourceTransit leaves through a global port of this router.
  RouteResult leave_group(RouterContext& ctx, Packet& p);
  static constexpr uint8_t kLeaveGroup = 1;  // Packet::phase
};

}  // namespace ccsim
