// routing.algorithm = "pb" on the dragonfly: PiggyBacking (Jiang, Kim, Dally,
// ISCA'09; the baseline of paper 002 IV-A, spec B.7.3). Source routing: at the
// source router a packet to another group takes a Valiant path through a
// random intermediate group when the group's global link on its minimal path
// is flagged saturated, or when UGAL-L prefers the Valiant path with a bias of
// T packets towards minimal; otherwise the minimal path. A router flags a
// global port saturated when its occupancy exceeds a percentage of the mean
// occupancy of its global ports plus a margin (FOGSim's rule). The flags are
// evaluated from the owner's credit counts: as they are now by default, or as
// they were routing.pb_flag_delay cycles ago at the other routers of the group
// (002 piggybacks them on the local links; delayed_global_occupancy.h).
// VC template as VAL: l g l g l, 3 slots (l g l l g l, 4, through an intermediate router).
#include <memory>

#include "registry.h"
#include "routing/delayed_global_occupancy.h"
#include "routing/dragonfly_routing.h"

namespace ccsim {
namespace {

class DragonflyPb : public DragonflyRouting {
 public:
  DragonflyPb(const Dragonfly& df, bool via_router, int threshold, int saturation_percent, int saturation_packets,
              int flag_delay)
      : DragonflyRouting(df, {1, via_router ? 2 : 1, 1}, via_router),
        threshold_(threshold),
        saturation_percent_(saturation_percent),
        saturation_packets_(saturation_packets),
        delayed_(flag_delay > 0 ? std::make_unique<DelayedGlobalOccupancy>(df, flag_delay) : nullptr) {}
  RouteResult route(RouterContext& ctx, int, Packet& p) override {
    if (delayed_) delayed_->record(ctx);
    if (!p.decided) {
      p.decided = true;
      const int r = ctx.router_id();
      const int gs = df_.group_of(r), gd = df_.group_of_node(p.dst);
      const int inter = gs == gd ? -1 : random_intermediate(ctx, gs, gd);  // a group, or a router
      if (inter >= 0 &&
          (minimal_link_saturated(ctx, p) || !prefer_minimal(ctx, p, inter, false, threshold_ * p.size))) {
        p.intermediate = inter;
        p.misrouted = misroutes_globally(inter, gd);
      }
    }
    return follow(ctx, p);
  }

 private:
  bool minimal_link_saturated(RouterContext& ctx, const Packet& p) {
    int er, ep;
    df_.global_exit(df_.group_of(ctx.router_id()), df_.group_of_node(p.dst), copy_for(p), er, ep);
    // The flags of another router of the group arrive over a local link.
    const bool delayed = delayed_ && er != ctx.router_id();
    auto occupancy = [&](int port) { return delayed ? delayed_->seen(ctx, er, port) : ctx.remote_occupancy(er, port); };
    int64_t sum = 0;
    for (int i = 0; i < df_.h(); ++i) sum += occupancy(df_.first_global_port() + i);
    // occ > percent/100 * sum/h + margin, in integers.
    const int64_t h = df_.h();
    return 100 * h * occupancy(ep) > saturation_percent_ * sum + 100 * h * saturation_packets_ * p.size;
  }

  int threshold_, saturation_percent_, saturation_packets_;
  std::unique_ptr<DelayedGlobalOccupancy> delayed_;  // routing.pb_flag_delay > 0, or null
};

}  // namespace

RoutingEntry dragonfly_pb_entry() {
  return {"pb",
          "dragonfly",
          "piggybacking (002's PB): at the source, Valiant when the minimal global link is flagged saturated or "
          "UGAL-L prefers it; 3 VC slots (4 through an intermediate router: valiant_intermediate)",
          {int_param("routing.pb_threshold", 3, "pb: UGAL-L bias towards minimal, in packets (002 Table I: T = 3)", 0,
                     1 << 20),
           int_param("routing.pb_saturation_percent", 200,
                     "pb: a global port is saturated when its occupancy exceeds this percentage of the mean over "
                     "its router's global ports plus routing.pb_saturation_packets packets (FOGSim: 200)",
                     0, 1 << 20),
           int_param("routing.pb_saturation_packets", 5, "pb: packets added to the saturation level (FOGSim: 5)", 0,
                     1 << 20),
           int_param("routing.pb_flag_delay", 0,
                     "pb: cycles before another router of the group sees a global port's saturation flag (002 "
                     "piggybacks the flags on the local links: their latency); 0 = at once",
                     0, 1 << 16),
           valiant_intermediate_param()},
          [](const Config& c, const Topology& t) {
            return std::make_unique<DragonflyPb>(dynamic_cast<const Dragonfly&>(t), valiant_via_router(c),
                                                 static_cast<int>(c.get_int("routing.pb_threshold")),
                                                 static_cast<int>(c.get_int("routing.pb_saturation_percent")),
                                                 static_cast<int>(c.get_int("routing.pb_saturation_packets")),
                                                 static_cast<int>(c.get_int("routing.pb_flag_delay")));
          }};
}

}  // namespace ccsim
