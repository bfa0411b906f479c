// routing.algorithm = "min" on the dragonfly: minimal routing, at most
// local-global-local (papers 002 IV, 003 4).
#include "registry.h"
#include "routing/dragonfly_routing.h"

namespace ccsim {
namespace {

class DragonflyMin : public DragonflyRouting {
 public:
  explicit DragonflyMin(const Dragonfly& df) : DragonflyRouting(df, {1, 1}) {}
  bool honours_minimal_only() const override { return true; }
  bool reads_only_its_router() const override { return true; }
  RouteResult route(RouterContext& ctx, int, Packet& p) override {
    const int r = ctx.router_id();
    return take(r, min_port(r, p), p);
  }
};

}  // namespace

RoutingEntry dragonfly_min_entry() {
  return {"min",
          "dragonfly",
          "minimal routing (local, global, local); 2 VC slots",
          {},
          [](const Config&, const Topology& t) {
            return std::make_unique<DragonflyMin>(dynamic_cast<const Dragonfly&>(t));
          }};
}

}  // namespace ccsim
