// routing.algorithm = "par" on the dragonfly: Progressive Adaptive Routing
// (Jiang, Kim, Dally, ISCA'09; 003 section 4). UGAL-L decides at the source
// router; a packet that went minimal may still switch to a Valiant path at the
// next router of the source group, re-evaluating once with that router's queues.
// VC template l l g l g l: 4 local / 2 global slots.
//
// "par62" is 003's PAR6/2 as we read it (García et al., ICPP 2013): PAR plus
// local misrouting in the intermediate and destination groups. At the first
// router of such a group, a packet whose minimal next hop is local may go
// through a random other router of the group instead, by the same UGAL rule
// on the two local queues (2 hops against 1). VC template l l g l l g l l:
// 6 local / 2 global slots.
#include "registry.h"
#include "routing/dragonfly_routing.h"
#include "routing/ugal.h"

namespace ccsim {
namespace {

class DragonflyPar : public DragonflyRouting {
 public:
  DragonflyPar(const Dragonfly& df, int threshold, bool local_misrouting)
      : DragonflyRouting(df, local_misrouting ? std::vector<int>{2, 2, 2} : std::vector<int>{2, 1, 1}),
        threshold_(threshold),
        local_misrouting_(local_misrouting) {}
  bool reads_only_its_router() const override { return true; }
  RouteResult route(RouterContext& ctx, int, Packet& p) override {
    const int r = ctx.router_id();
    const int gs = df_.group_of(r), gd = df_.group_of_node(p.dst);
    const bool at_source = !p.decided;
    const bool second_chance =
        p.decided && p.phase == 0 && !p.misrouted && p.global_hops == 0 && p.local_hops_in_group == 1 && gs != gd;
    if (at_source || second_chance) {
      p.decided = true;
      if (second_chance) p.phase = 1;
      const int gi = gs == gd ? -1 : random_group(ctx, gs, gd);
      if (gi >= 0 && !prefer_minimal(ctx, p, gi, false, threshold_)) {
        p.intermediate = gi;
        p.misrouted = true;
      }
    }
    if (local_misrouting_ && p.global_hops > 0 && p.local_hops_in_group == 0) {
      if (p.intermediate >= 0 && gs == p.intermediate) p.intermediate = -1;  // reached
      const int min_out = p.intermediate >= 0 ? df_.min_port_to_group(r, p.intermediate, copy_for(p)) : min_port(r, p);
      const int detour = df_.port_kind(r, min_out) == PortKind::Local ? random_local_port(ctx, min_out) : -1;
      if (detour >= 0 && !ugal_prefers_minimal(ctx.occupancy(min_out), 2 * ctx.occupancy(detour), threshold_)) {
        p.misrouted = true;
        return take(r, detour, p);
      }
    }
    return follow(ctx, p);
  }

 private:
  // A local port other than `except`; -1 if the group has no third router.
  int random_local_port(RouterContext& ctx, int except) const {
    const int others = df_.a() - 2;
    if (others <= 0) return -1;
    const int first = df_.p();
    int port = first + static_cast<int>(ctx.rng().below(static_cast<uint32_t>(others)));
    if (port >= except) ++port;
    return port;
  }

  int threshold_;
  bool local_misrouting_;
};

}  // namespace

static RoutingEntry par_variant(bool local_misrouting) {
  const char* doc = local_misrouting
                        ? "003's PAR6/2: PAR plus local misrouting at the first router of the intermediate and "
                          "destination groups (UGAL rule on the local queues); 6 VC slots"
                        : "progressive adaptive: UGAL-L at the source router, re-evaluated once at the next router "
                          "of the source group; 4 VC slots";
  return {local_misrouting ? "par62" : "par",
          "dragonfly",
          doc,
          {int_param("routing.ugal_threshold", 30, "bias towards minimal (flits), as for UGAL")},
          [local_misrouting](const Config& c, const Topology& t) {
            return std::make_unique<DragonflyPar>(dynamic_cast<const Dragonfly&>(t),
                                                  static_cast<int>(c.get_int("routing.ugal_threshold")),
                                                  local_misrouting);
          }};
}

RoutingEntry dragonfly_par_entry() { return par_variant(false); }
RoutingEntry dragonfly_par62_entry() { return par_variant(true); }

}  // namespace ccsim
