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
// router, when the packet is first routed there, or (routing.reevaluate, 002;
// FOGSim) again in every cycle while the packet waits at the head of its queue
// for the VC it chose, from the routing state it arrived with.
//
// VCs (routing.vc_scheme):
//  * "acyclic": template l l g l l g l l, at most two local hops in each group
//    visited, 6 local / 2 global slots; slots grow along every path, so the
//    channel dependency graph is acyclic (tests/test_deadlock_freedom.cpp).
//  * "opportunistic": OLM's ladder l0 g0 l1 g1 l2 (002 Table I: 3 local / 2
//    global VCs; FOGSim). A minimal or global hop takes the next rung of its
//    port kind above the last hop's; a local misroute reuses the latest local
//    rung at or below it, so the longest path l l g l l g l l runs on
//    l0 l0 g0 l0 l1 g1 l1 l2. Misroutes can close cycles of channel
//    dependencies, but one is taken only when its VC and the buffer behind it
//    are free now (vc_free_now), and the router allocates it in the same step:
//    no packet ever waits for a misroute, and every wait climbs the ladder
//    (tests/test_deadlock_freedom.cpp checks the graph of waits).
#pragma once
#include "core/params.h"
#include "routing/dragonfly_routing.h"

namespace ccsim {

class DragonflyInTransit : public DragonflyRouting {
 public:
  explicit DragonflyInTransit(const Dragonfly& df) : DragonflyRouting(df, {2, 2, 2}) {}
  RouteResult route(RouterContext& ctx, int in_port, Packet& p) final;
  RouteResult reroute(RouterContext& ctx, int in_port, Packet& p) final;
  bool reroutes_when_blocked() const final { return reevaluate_; }
  int vc_slots() const override { return ladder_ ? 3 : DragonflyRouting::vc_slots(); }
  // routing.vc_scheme of `c`, checked against the router it needs, and routing.reevaluate.
  void configure(const Config& c);

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
  // The VC slot of p's hop through `port`, a misroute or not.
  int slot_of_hop(int router, int port, const Packet& p, bool misroute) const;

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
  // take() for the hop through `port`, on the ladder's rung with the ladder.
  RouteResult hop(int router, int port, Packet& p, bool misroute) const;
  // The ladder position (l0 g0 l1 g1 l2 = 0..4) of p's next hop of kind `kind`.
  static int ladder_position(const Packet& p, PortKind kind, bool misroute);
  // Whether a misroute through `port` can be taken now.
  bool free_now(RouterContext& ctx, int port, const Packet& p) const;
  static constexpr uint8_t kLeaveGroup = 1;  // Packet::phase
  RouteResult decide(RouterContext& ctx, int in_port, Packet& p);
  bool ladder_ = false;
  bool reevaluate_ = false;
};

// routing.vc_scheme of the in-transit algorithms (olm, base, hybrid, ectn).
ParamSpec vc_scheme_param();
ParamSpec reevaluate_param();

}  // namespace ccsim
