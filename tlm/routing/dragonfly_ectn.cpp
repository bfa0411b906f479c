// routing.algorithm = "ectn" on the dragonfly: Explicit Contention
// Notification (paper 002 III-D, IV-A). Every router keeps a partial array, one
// counter per global link of its group, of the packets entering the group at
// it towards that link; the routers of a group broadcast their partial arrays
// every period (4-bit saturated values, 002 VI-B) and add the arrays received
// to their own into the combined array. At injection a packet is misrouted
// when the combined counter of its minimal global link, or Base's counter of
// its minimal output, reaches its threshold, to a random global port of this
// router whose combined counter is below the combined threshold; later hops
// follow Base. The broadcast costs no bandwidth (as in 002), or, with
// routing.ectn_broadcast_phit_bits, takes each local channel for the phits of
// the array at the start of every period (002 VI-B's cost); the receivers use it
// after a delay (by default when its last phit has crossed the local link).
#include <fmt/format.h>

#include <algorithm>

#include "core/settings.h"
#include "registry.h"
#include "routing/dragonfly_counter_routing.h"

namespace ccsim {
namespace {

class DragonflyEctn : public DragonflyCounterRouting {
 public:
  // `broadcast_cycles`: cycles of each local channel the broadcast takes per period (0: free).
  DragonflyEctn(const Dragonfly& df, const ContentionCounterParams& cp, int broadcast_cycles)
      : DragonflyCounterRouting(df, cp), sideband_{cp.broadcast_period, broadcast_cycles} {}
  LocalSideBand local_sideband() const override { return sideband_; }

 protected:
  bool misroute(RouterContext& ctx, const Packet& p, int min_out, Stage stage) override {
    const int r = ctx.router_id();
    if (stage == Stage::Injection && counters_.combined_contended(r, exit_link(r, p), ctx.cycle())) return true;
    return contended(ctx, min_out);
  }
  // At injection, global ports whose combined counter is below its threshold; later, Base.
  bool accepts(RouterContext& ctx, const Packet&, int, Stage stage, int port) override {
    const int r = ctx.router_id();
    if (stage == Stage::Injection) return !counters_.combined_contended(r, counters_.group_link(r, port), ctx.cycle());
    return !contended(ctx, port);
  }

 private:
  LocalSideBand sideband_;
};

}  // namespace

RoutingEntry dragonfly_ectn_entry() {
  return {"ectn",
          "dragonfly",
          "explicit contention notification (002 ECtN): group-wide counters per global link, broadcast "
          "periodically, decide global misrouting at injection; Base afterwards; 6 VC slots (3: vc_scheme)",
          {contention_threshold_param(),
           int_param("routing.ectn_combined_threshold", 10,
                     "ectn: a combined counter at or above this marks its global link contended (002 Table I: 10)", 1,
                     1 << 15),
           int_param("routing.ectn_period", 100, "ectn: cycles between broadcasts of the partial arrays (002: 100)", 1,
                     1 << 20),
           int_param("routing.ectn_delay", 0,
                     "ectn: cycles from a broadcast until its arrays are used, below ectn_period; 0 = "
                     "links.local_latency (ours: one local hop), plus the broadcast's phits but one when charged",
                     0, 1 << 20),
           int_param("routing.ectn_broadcast_phit_bits", 0,
                     "ectn: 0 = the broadcast costs no bandwidth (as 002's simulations); N = it is charged: every "
                     "period each router sends its partial array (a*h counters of 4 bits) on each local channel in "
                     "phits of N bits, which take the channel before any data (002 VI-B: 10-byte phits, 80)",
                     0, 1 << 20),
           vc_scheme_param(), reevaluate_param(), counter_stats_param()},
          [](const Config& c, const Topology& t) {
            ContentionCounterParams cp;
            cp.hardware = hw::Selection::from_config(c);
            cp.ectn = true;
            cp.threshold = static_cast<int>(c.get_int("routing.contention_threshold"));
            cp.combined_threshold = static_cast<int>(c.get_int("routing.ectn_combined_threshold"));
            cp.broadcast_period = static_cast<int>(c.get_int("routing.ectn_period"));
            cp.broadcast_delay = static_cast<int>(c.get_int("routing.ectn_delay"));
            read_counter_stats(c, cp);
            const auto& df = dynamic_cast<const Dragonfly&>(t);
            const int64_t phit_bits = c.get_int("routing.ectn_broadcast_phit_bits");
            // The counters go out at the block's sent width (4 bits, 002 VI-B).
            const int64_t array_bits = int64_t{df.a()} * df.h() * blocks::ContentionCounters::Config{}.sent_width;
            const int64_t phits = phit_bits > 0 ? (array_bits + phit_bits - 1) / phit_bits : 0;
            if (phits >= cp.broadcast_period)
              throw ConfigError("routing.ectn_broadcast_phit_bits",
                                fmt::format("the array of {} bits takes {} phits of {} bits, not below "
                                            "routing.ectn_period ({}): the local channels would carry nothing else",
                                            array_bits, phits, phit_bits, cp.broadcast_period));
            const bool default_delay = cp.broadcast_delay == 0;
            if (default_delay)
              cp.broadcast_delay = NetworkSettings::from_config(c).latency(PortKind::Local) +
                                   static_cast<int>(std::max<int64_t>(phits - 1, 0));
            if (default_delay && phits > 0 && cp.broadcast_delay >= cp.broadcast_period)
              throw ConfigError("routing.ectn_broadcast_phit_bits",
                                fmt::format("its {} phits would still be crossing the local links ({} cycles) when "
                                            "the next broadcast starts (routing.ectn_period {})",
                                            phits, cp.broadcast_delay, cp.broadcast_period));
            if (cp.broadcast_delay >= cp.broadcast_period)
              throw ConfigError("routing.ectn_delay", fmt::format("must be below routing.ectn_period ({}), got {}",
                                                                  cp.broadcast_period, cp.broadcast_delay));
            auto rf = std::make_unique<DragonflyEctn>(df, cp, static_cast<int>(phits));
            rf->configure(c);
            return rf;
          }};
}

}  // namespace ccsim
