// routing.algorithm = "olm" on the dragonfly: Opportunistic Local Misrouting
// (Garcia et al., ICPP'13; the baseline of paper 002 IV-A). In-transit global
// misrouting at injection or after the first local hop (MM), and local
// misrouting in the intermediate and destination groups (+L), when the minimal
// output's VCs have no room for the packet and the candidate's VCs are at
// most the given percentage as occupied as the minimal output's. In-transit policy and VCs:
// tlm/routing/dragonfly_in_transit.h.
#include "registry.h"
#include "routing/dragonfly_in_transit.h"

namespace ccsim {
namespace {

class DragonflyOlm : public DragonflyInTransit {
 public:
  DragonflyOlm(const Dragonfly& df, int percent) : DragonflyInTransit(df), percent_(percent) {}

 protected:
  bool misroute(RouterContext& ctx, const Packet& p, int min_out, Stage) override {
    return minimal_blocked(ctx, p, min_out);
  }
  bool accepts(RouterContext& ctx, const Packet& p, int min_out, Stage, int port) override {
    return much_less_occupied(ctx, p, port, min_out, percent_);
  }

 private:
  int percent_;
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
           vc_scheme_param(), reevaluate_param()},
          [](const Config& c, const Topology& t) {
            auto rf = std::make_unique<DragonflyOlm>(dynamic_cast<const Dragonfly&>(t),
                                                     static_cast<int>(c.get_int("routing.olm_occupancy_percent")));
            rf->configure(c);
            return rf;
          }};
}

}  // namespace ccsim
