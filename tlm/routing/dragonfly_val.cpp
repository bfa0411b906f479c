// routing.algorithm = "val" on the dragonfly: Valiant routing through a random
// intermediate group (neither source nor destination group), minimal in each
// phase. Traffic inside a group routes minimally. Paper 002 IV.
#include "registry.h"
#include "routing/dragonfly_routing.h"

namespace ccsim {
namespace {

class DragonflyVal : public DragonflyRouting {
 public:
  explicit DragonflyVal(const Dragonfly& df) : DragonflyRouting(df, {1, 1, 1}) {}
  bool reads_only_its_router() const override { return true; }
  RouteResult route(RouterContext& ctx, int, Packet& p) override {
    const int r = ctx.router_id();
    if (!p.decided) {
      p.decided = true;
      p.intermediate = random_group(ctx, df_.group_of(r), df_.group_of_node(p.dst));
      if (df_.group_of(r) == df_.group_of_node(p.dst)) p.intermediate = -1;
      p.misrouted = p.intermediate >= 0;
    }
    return follow(ctx, p);
  }
};

}  // namespace

RoutingEntry dragonfly_val_entry() {
  return {"val",
          "dragonfly",
          "Valiant: minimal to a random intermediate group, then minimal; 3 VC slots",
          {},
          [](const Config&, const Topology& t) {
            return std::make_unique<DragonflyVal>(dynamic_cast<const Dragonfly&>(t));
          }};
}

}  // namespace ccsim
