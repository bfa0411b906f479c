// The contention-counter algorithms of paper 002 (Base, Hybrid, ECtN) share
// OLM's in-transit policy and the counters of every router, which follow the
// input queues: a packet counts at its minimal output from the moment its head
// is at the front of an input queue until its tail leaves the input buffer,
// whichever port it takes (002 III-B). For ECtN, packets entering the group
// towards another group (at an injection or a global input) also count at the
// group's global link towards their destination (002 III-D).
#pragma once
#include "core/params.h"
#include "routing/contention_counter_bank.h"
#include "routing/dragonfly_in_transit.h"

namespace ccsim {

class DragonflyCounterRouting : public DragonflyInTransit {
 public:
  DragonflyCounterRouting(const Dragonfly& df, const ContentionCounterParams& params)
      : DragonflyInTransit(df), counters_(df, params), ectn_(params.ectn) {}
  bool wants_queue_events() const override { return true; }
  bool reads_only_its_router() const override { return counters_.per_router(); }
  std::vector<hw::Block> hardware_blocks() const override { return {hw::Block::ContentionCounters}; }
  void on_head_at_front(RouterContext& ctx, int in_port, const Packet& p) override {
    const int r = ctx.router_id();
    counters_.head_at_front(r, min_port(r, p), partial_link(r, in_port, p), ctx.cycle());
  }
  void on_tail_left(RouterContext& ctx, int in_port, const Packet& p) override {
    const int r = ctx.router_id();
    counters_.tail_left(r, min_port(r, p), partial_link(r, in_port, p), ctx.cycle());
  }
  nlohmann::json stats() const override {
    if (const std::optional<double> m = counters_.mean()) return {{"contention_counter_mean", *m}};
    return nlohmann::json::object();
  }

 protected:
  bool contended(RouterContext& ctx, int port) { return counters_.contended(ctx.router_id(), port, ctx.cycle()); }
  // The group's global link (group-output index) a packet to p.dst leaves through.
  int exit_link(int r, const Packet& p) const {
    int er, ep;
    df_.global_exit(df_.group_of(r), df_.group_of_node(p.dst), copy_for(p), er, ep);
    return counters_.group_link(er, ep);
  }

  ContentionCounterBank counters_;

 private:
  int partial_link(int r, int in_port, const Packet& p) const {
    if (!ectn_ || df_.group_of(r) == df_.group_of_node(p.dst)) return -1;
    const PortKind k = df_.port_kind(r, in_port);
    return k == PortKind::Local ? -1 : exit_link(r, p);
  }
  bool ectn_;
};

inline ParamSpec contention_threshold_param() {
  return int_param("routing.contention_threshold", 6,
                   "base, ectn: a contention counter at or above this marks its output contended (002 Table I: 6)", 1,
                   127);
}

// routing.counter_stats (off by default, so results without it stay as they were).
inline ParamSpec counter_stats_param() {
  return bool_param("routing.counter_stats", false,
                    "base, hybrid, ectn: report contention_counter_mean, the counters' mean over every output port "
                    "and the measured window (002 VI-A: at saturation, the mean number of VCs per input port)");
}
inline void read_counter_stats(const Config& c, ContentionCounterParams& cp) {
  cp.report_mean = c.get_bool("routing.counter_stats");
  cp.mean_start = c.get_int("sim.warmup");
  cp.mean_end = cp.mean_start + c.get_int("sim.measure");
}

}  // namespace ccsim
