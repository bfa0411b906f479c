// routing.algorithm = "ugal_l" / "ugal_g" on the dragonfly: Universal Globally
// Adaptive Load-balanced routing, decided once at the source router between
// the minimal path and one random Valiant path (papers 002 IV, 003 4).
// UGAL-L compares the source router's own output queues; UGAL-G adds the
// queue of the global channel each path uses (ideal global knowledge).
#include "registry.h"
#include "routing/dragonfly_routing.h"
#include "routing/ugal.h"

namespace ccsim {
namespace {

class DragonflyUgal : public DragonflyRouting {
 public:
  DragonflyUgal(const Dragonfly& df, bool global_info, int threshold)
      : DragonflyRouting(df, {1, 1, 1}), global_(global_info), threshold_(threshold) {}
  bool reads_only_its_router() const override { return !global_; }  // UGAL-G reads other routers' queues
  RouteResult route(RouterContext& ctx, int, Packet& p) override {
    if (!p.decided) {
      p.decided = true;
      const int r = ctx.router_id();
      const int gs = df_.group_of(r), gd = df_.group_of_node(p.dst);
      const int gi = gs == gd ? -1 : random_group(ctx, gs, gd);
      if (gi >= 0 && !prefer_minimal(ctx, p, gi, global_, threshold_)) {
        p.intermediate = gi;
        p.misrouted = true;
      }
    }
    return follow(ctx, p);
  }

 private:
  bool global_;
  int threshold_;
};

}  // namespace

RoutingEntry dragonfly_ugal_l_entry() {
  return {"ugal_l",
          "dragonfly",
          "UGAL with local queue information at the source router; 3 VC slots",
          {ugal_threshold_param()},
          [](const Config& c, const Topology& t) {
            return std::make_unique<DragonflyUgal>(dynamic_cast<const Dragonfly&>(t), false,
                                                   static_cast<int>(c.get_int("routing.ugal_threshold")));
          }};
}

RoutingEntry dragonfly_ugal_g_entry() {
  return {"ugal_g",
          "dragonfly",
          "UGAL with global queue information (source and global channel queues)",
          {ugal_threshold_param()},
          [](const Config& c, const Topology& t) {
            return std::make_unique<DragonflyUgal>(dynamic_cast<const Dragonfly&>(t), true,
                                                   static_cast<int>(c.get_int("routing.ugal_threshold")));
          }};
}

}  // namespace ccsim
