// routing.algorithm = "val" on the flattened butterfly: Valiant routing, DOR
// to a random intermediate router, then DOR to the destination (specs A.4.2);
// 2 VC slots, one per phase.
#include "registry.h"
#include "routing/flatfly_routing.h"

namespace ccsim {
namespace {

class FlatflyVal : public FlatflyRouting {
 public:
  explicit FlatflyVal(const FlattenedButterfly& fb) : FlatflyRouting(fb, 2) {}
  bool reads_only_its_router() const override { return true; }
  RouteResult route(RouterContext& ctx, int, Packet& p) override {
    if (!p.decided) start_path(p, valiant_intermediate(ctx, ctx.router_id(), p));
    return follow(ctx, p);
  }
};

}  // namespace

RoutingEntry flatfly_val_entry() {
  return {"val",
          "flatfly",
          "Valiant: dimension order to a random intermediate router, then to the destination; 2 VC slots",
          {},
          [](const Config&, const Topology& t) {
            return std::make_unique<FlatflyVal>(dynamic_cast<const FlattenedButterfly&>(t));
          }};
}

}  // namespace ccsim
