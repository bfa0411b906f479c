// routing.algorithm = "hybrid" on the dragonfly: the Hybrid mechanism of
// paper 002 (III-C, IV-A). Base's contention rule with its own threshold; when
// the counters do not ask for misrouting, OLM's congestion rule with its own
// occupancy percentage may still take the packet off the minimal path.
#include "registry.h"
#include "routing/dragonfly_counter_routing.h"

namespace ccsim {
namespace {

class DragonflyHybrid : public DragonflyCounterRouting {
 public:
  DragonflyHybrid(const Dragonfly& df, const ContentionCounterParams& cp, int percent)
      : DragonflyCounterRouting(df, cp), percent_(percent) {}

 protected:
  bool misroute(RouterContext& ctx, const Packet& p, int min_out, Stage) override {
    return contended(ctx, min_out) || minimal_blocked(ctx, p, min_out);
  }
  // Base's candidate rule when the counters asked for misrouting, else OLM's.
  bool accepts(RouterContext& ctx, const Packet& p, int min_out, Stage, int port) override {
    if (contended(ctx, min_out)) return !contended(ctx, port);
    return much_less_occupied(ctx, p, port, min_out, percent_);
  }

 private:
  int percent_;
};

}  // namespace

RoutingEntry dragonfly_hybrid_entry() {
  return {
      "hybrid",
      "dragonfly",
      "contention counters or output occupancy (002 Hybrid): Base's rule, else OLM's rule; 6 VC slots (3: vc_scheme)",
      {int_param("routing.hybrid_contention_threshold", 7, "hybrid: contention counter threshold (002 Table I: 7)", 1,
                 127),
       int_param("routing.hybrid_occupancy_percent", 35, "hybrid: OLM's rule with this percentage (002 Table I: 35)", 0,
                 100),
       vc_scheme_param(), reevaluate_param(), counter_stats_param()},
      [](const Config& c, const Topology& t) {
        ContentionCounterParams cp;
        cp.hardware = hw::Selection::from_config(c);
        cp.threshold = static_cast<int>(c.get_int("routing.hybrid_contention_threshold"));
        read_counter_stats(c, cp);
        auto rf = std::make_unique<DragonflyHybrid>(dynamic_cast<const Dragonfly&>(t), cp,
                                                    static_cast<int>(c.get_int("routing.hybrid_occupancy_percent")));
        rf->configure(c);
        return rf;
      }};
}

}  // namespace ccsim
