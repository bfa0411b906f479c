// routing.algorithm = "min" on the flattened butterfly: dimension-order
// routing, lowest dimension first (specs A.4.1); one VC slot.
#include "registry.h"
#include "routing/flatfly_routing.h"

namespace ccsim {
namespace {

class FlatflyMin : public FlatflyRouting {
 public:
  explicit FlatflyMin(const FlattenedButterfly& fb) : FlatflyRouting(fb, 1) {}
  bool reads_only_its_router() const override { return true; }
  RouteResult route(RouterContext& ctx, int, Packet& p) override {
    const int r = ctx.router_id();
    return take(r, port_towards(r, dst_router(p), p), p);
  }
};

}  // namespace

RoutingEntry flatfly_min_entry() {
  return {"min",
          "flatfly",
          "dimension-order routing, lowest dimension first; 1 VC slot",
          {},
          [](const Config&, const Topology& t) {
            return std::make_unique<FlatflyMin>(dynamic_cast<const FlattenedButterfly&>(t));
          }};
}

}  // namespace ccsim
