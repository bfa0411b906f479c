// routing.algorithm = "ugal_l" / "ugal_g" on the flattened butterfly:
// Universal Globally Adaptive Load-balanced routing, decided once at the
// source router between the DOR path and one Valiant path (specs A.4.3).
// UGAL-L estimates a path's delay as its first channel's queue x its hops
// (local information); UGAL-G as the sum of the queues of every channel on the
// path (ideal global knowledge: each queue is waited through once, so no hop
// factor). 2 VC slots, as VAL.
#include "registry.h"
#include "routing/flatfly_routing.h"
#include "routing/ugal.h"

namespace ccsim {
namespace {

class FlatflyUgal : public FlatflyRouting {
 public:
  FlatflyUgal(const FlattenedButterfly& fb, bool global_info, int threshold)
      : FlatflyRouting(fb, 2), global_(global_info), threshold_(threshold) {}
  bool reads_only_its_router() const override { return !global_; }  // UGAL-G reads other routers' queues
  RouteResult route(RouterContext& ctx, int, Packet& p) override {
    if (!p.decided) {
      int intermediate = valiant_intermediate(ctx, ctx.router_id(), p);
      if (intermediate >= 0 && prefer_minimal(ctx, p, intermediate)) intermediate = -1;
      start_path(p, intermediate);
    }
    return follow(ctx, p);
  }

 private:
  // Called only when both paths leave the source router.
  bool prefer_minimal(RouterContext& ctx, const Packet& p, int intermediate) {
    const int r = ctx.router_id(), dr = dst_router(p);
    if (global_)
      return ugal_prefers_minimal(path_queue(ctx, r, dr),
                                  path_queue(ctx, r, intermediate) + path_queue(ctx, intermediate, dr), threshold_);
    return ugal_prefers_minimal(ctx.occupancy(fb_.dor_port(r, dr)) * fb_.min_hops(r, dr),
                                ctx.occupancy(fb_.dor_port(r, intermediate)) * valiant_hops(r, intermediate, p),
                                threshold_);
  }
  // Flits queued on every channel of the DOR route between two routers.
  int path_queue(RouterContext& ctx, int from, int to) const {
    int q = 0;
    for (int r = from; r != to;) {
      const int port = fb_.dor_port(r, to);
      q += r == ctx.router_id() ? ctx.occupancy(port) : ctx.remote_occupancy(r, port);
      r = fb_.peer(r, port).id;
    }
    return q;
  }

  bool global_;
  int threshold_;
};

}  // namespace

RoutingEntry flatfly_ugal_l_entry() {
  return {"ugal_l",
          "flatfly",
          "UGAL with the first channel's queue of each path at the source router; 2 VC slots",
          {ugal_threshold_param()},
          [](const Config& c, const Topology& t) {
            return std::make_unique<FlatflyUgal>(dynamic_cast<const FlattenedButterfly&>(t), false,
                                                 static_cast<int>(c.get_int("routing.ugal_threshold")));
          }};
}

RoutingEntry flatfly_ugal_g_entry() {
  return {"ugal_g",
          "flatfly",
          "UGAL with global knowledge: minimal iff the sum of the queues on the minimal path <= the sum on "
          "the Valiant path + threshold; 2 VC slots",
          {ugal_threshold_param()},
          [](const Config& c, const Topology& t) {
            return std::make_unique<FlatflyUgal>(dynamic_cast<const FlattenedButterfly&>(t), true,
                                                 static_cast<int>(c.get_int("routing.ugal_threshold")));
          }};
}

}  // namespace ccsim
