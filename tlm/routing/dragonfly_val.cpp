// routing.algorithm = "val" on the dragonfly: Valiant routing through a random
// intermediate group (neither source nor destination group), or through a
// random router of it (routing.valiant_intermediate = "router", as FOGSim),
// minimal in each phase. Traffic inside a group routes minimally. Paper 002 IV.
#include "registry.h"
#include "routing/dragonfly_routing.h"

namespace ccsim {
namespace {

class DragonflyVal : public DragonflyRouting {
 public:
  DragonflyVal(const Dragonfly& df, bool via_router) : DragonflyRouting(df, {1, via_router ? 2 : 1, 1}, via_router) {}
  bool reads_only_its_router() const override { return true; }
  RouteResult route(RouterContext& ctx, int, Packet& p) override {
    const int r = ctx.router_id();
    if (!p.decided) {
      p.decided = true;
      p.intermediate = random_intermediate(ctx, df_.group_of(r), df_.group_of_node(p.dst));
      if (df_.group_of(r) == df_.group_of_node(p.dst)) p.intermediate = -1;
      p.misrouted = misroutes_globally(p.intermediate, df_.group_of_node(p.dst));
    }
    return follow(ctx, p);
  }
};

}  // namespace

RoutingEntry dragonfly_val_entry() {
  return {"val",
          "dragonfly",
          "Valiant: minimal to a random intermediate group (or router: valiant_intermediate), then minimal; 3 VC "
          "slots (4 through a router)",
          {valiant_intermediate_param()},
          [](const Config& c, const Topology& t) {
            return std::make_unique<DragonflyVal>(dynamic_cast<const Dragonfly&>(t), valiant_via_router(c));
          }};
}

}  // namespace ccsim
