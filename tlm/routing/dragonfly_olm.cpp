// routing.algorithm = "olm" on the dragonfly: Opportunistic Local Misrouting
// (Garcia et al., ICPP'13; the baseline of paper 002 IV-A). In-transit global
// misrouting at injection or after the first local hop (MM), and local
// misrouting in the intermediate and destination groups (+L), when the minimal
// output's VCs have no room for the packet and the candidate's VCs are at
// most the given percentage as occupied as the minimal output's; optionally
// (FOGSim's ThMin) only when the minimal output's VC is at least a given share
// occupied by its credit count. In-transit policy and VCs:
// tlm/routing/dragonfly_in_transit.h.
#include "registry.h"
#include "routing/dragonfly_in_transit.h"

namespace ccsim {
namespace {

class DragonflyOlm : public DragonflyInTransit {
 public:
  DragonflyOlm(const Dragonfly& df, int percent, int min_percent)
      : DragonflyInTransit(df), percent_(percent), min_percent_(min_percent) {}
  bool reads_only_its_router() const override { return true; }

 protected:
  bool misroute(RouterContext& ctx, const Packet& p, int min_out, Stage) override {
    if (!minimal_blocked(ctx, p, min_out)) return false;
    // The credit count of a large downstream buffer grows slowly after a change (002 II-C).
    return min_percent_ == 0 ||
           100 * ctx.vc_credit_occupancy(min_out, slot_of_hop(ctx.router_id(), min_out, p, false), p) >= min_percent_;
  }
  bool accepts(RouterContext& ctx, const Packet& p, int min_out, Stage, int port) override {
    return much_less_occupied(ctx, p, port, min_out, percent_);
  }

 private:
  int percent_, min_percent_;
};

}  // namespace

RoutingEntry dragonfly_olm_entry() {
  return {"olm",
          "dragonfly",
          "opportunistic local misrouting (002's OLM): in-transit global (MM) and local (+L) misrouting on "
          "output occupancy; 6 VC slots (3: vc_scheme)",
          {int_param("routing.olm_occupancy_percent", 50,
                     "olm: misroute to a port at most this percentage as occupied as the blocked minimal output "
                     "(002 Table I: 50)",
                     0, 100),
           int_param("routing.olm_min_occupancy_percent", 0,
                     "olm: misroute only when the blocked minimal output's VC is at least this percentage occupied "
                     "by its credit count (output queue plus downstream credits in use, over the downstream buffer: "
                     "FOGSim's ThMin; 002 gives none; 0 = no minimum)",
                     0, 100),
           vc_scheme_param(), reevaluate_param()},
          [](const Config& c, const Topology& t) {
            auto rf = std::make_unique<DragonflyOlm>(dynamic_cast<const Dragonfly&>(t),
                                                     static_cast<int>(c.get_int("routing.olm_occupancy_percent")),
                                                     static_cast<int>(c.get_int("routing.olm_min_occupancy_percent")));
            rf->configure(c);
            return rf;
          }};
}

}  // namespace ccsim
