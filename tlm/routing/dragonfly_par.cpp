// routing.algorithm = "par" on the dragonfly: Progressive Adaptive Routing
// (Jiang, Kim, Dally, ISCA'09; 003 section 4). UGAL-L decides at the source
// router; a packet that went minimal may still switch to a Valiant path at the
// next router of the source group, re-evaluating once with that router's queues.
// VC template l l g l g l: 4 local / 2 global slots.
//
// Departure from 003: its PAR6/2 also misroutes locally inside the intermediate
// and destination groups (6 local VCs); that variant comes with the endpoint
// protocols, where 003 uses it.
#include "registry.h"
#include "routing/dragonfly_routing.h"

namespace ccsim {
namespace {

class DragonflyPar : public DragonflyRouting {
 public:
  DragonflyPar(const Dragonfly& df, int threshold) : DragonflyRouting(df, {2, 1, 1}), threshold_(threshold) {}
  RouteResult route(RouterContext& ctx, int, Packet& p) override {
    const int r = ctx.router_id();
    const int gs = df_.group_of(r), gd = df_.group_of_node(p.dst);
    const bool at_source = !p.decided;
    const bool second_chance = p.decided && p.phase == 0 && !p.misrouted && p.global_hops == 0 &&
                               p.local_hops_in_group == 1 && gs != gd;
    if (at_source || second_chance) {
      p.decided = true;
      if (second_chance) p.phase = 1;
      const int gi = gs == gd ? -1 : random_group(ctx, gs, gd);
      if (gi >= 0 && !prefer_minimal(ctx, p, gi, false, threshold_)) {
        p.intermediate = gi;
        p.misrouted = true;
      }
    }
    return follow(ctx, p);
  }

 private:
  int threshold_;
};

}  // namespace

RoutingEntry dragonfly_par_entry() {
  return {"par", "dragonfly",
          "progressive adaptive: UGAL-L at the source router, re-evaluated once at the next router of the "
          "source group; 4 VC slots",
          {int_param("routing.ugal_threshold", 30, "bias towards minimal (flits), as for UGAL")},
          [](const Config& c, const Topology& t) {
            return std::make_unique<DragonflyPar>(dynamic_cast<const Dragonfly&>(t),
                                                  static_cast<int>(c.get_int("routing.ugal_threshold")));
          }};
}

}  // namespace ccsim
