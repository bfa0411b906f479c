// routing.algorithm = "base" on the dragonfly: contention-counter adaptive
// routing, the Base mechanism of paper 002 (III-B, IV-A). A packet leaves its
// minimal output when that output's contention counter (packets at the front
// of this router's input queues whose minimal output it is, the packet itself
// included) is at least the threshold, for a random allowed port whose counter
// is below it. In-transit policy and VCs: tlm/routing/dragonfly_in_transit.h.
#include "registry.h"
#include "routing/dragonfly_counter_routing.h"

namespace ccsim {
namespace {

class DragonflyBase : public DragonflyCounterRouting {
 public:
  using DragonflyCounterRouting::DragonflyCounterRouting;

 protected:
  bool misroute(RouterContext& ctx, const Packet&, int min_out, Stage) override { return contended(ctx, min_out); }
  bool accepts(RouterContext& ctx, const Packet&, int, Stage, int port) override { return !contended(ctx, port); }
};

}  // namespace

RoutingEntry dragonfly_base_entry() {
  return {"base",
          "dragonfly",
          "contention counters (002 Base): misroute in transit (OLM's policy) when the minimal output's counter "
          "reaches the threshold; 6 VC slots (3: vc_scheme)",
          {contention_threshold_param(), vc_scheme_param(), reevaluate_param(), counter_stats_param()},
          [](const Config& c, const Topology& t) {
            ContentionCounterParams cp;
            cp.hardware = hw::Selection::from_config(c);
            cp.threshold = static_cast<int>(c.get_int("routing.contention_threshold"));
            read_counter_stats(c, cp);
            auto rf = std::make_unique<DragonflyBase>(dynamic_cast<const Dragonfly&>(t), cp);
            rf->configure(c);
            return rf;
          }};
}

}  // namespace ccsim
