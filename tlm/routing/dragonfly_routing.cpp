#include "routing/dragonfly_routing.h"

#include <algorithm>
#include <cassert>

#include "routing/ugal.h"

namespace ccsim {

DragonflyRouting::DragonflyRouting(const Dragonfly& df, std::vector<int> local_slots_per_group, bool via_router)
    : df_(df), via_router_(via_router) {
  int next = 0;
  for (int n : local_slots_per_group) {
    base_.push_back(next);
    next += n;
  }
  local_slots_ = next;
  global_slots_ = static_cast<int>(local_slots_per_group.size()) - 1;
  slots_ = std::max(local_slots_, std::max(global_slots_, 1));
}

int DragonflyRouting::min_port(int router, const Packet& p) const {
  const int dr = dst_router(p);
  if (router == dr) return df_.node_port(p.dst);
  return df_.min_port_to_router(router, dr, copy_for(p));
}

int DragonflyRouting::nonmin_hops(int router, int inter, const Packet& p) const {
  if (via_router_) return df_.min_hops(router, inter) + df_.min_hops(inter, dst_router(p));
  const int gi = inter;
  if (copy_for(p) == 0) {
    const bool exits_here = df_.port_kind(router, df_.min_port_to_group(router, gi, 0)) == PortKind::Global;
    return !exits_here + 1 + df_.min_hops(df_.entry_router(df_.group_of(router), gi), dst_router(p));
  }
  int exit_router, exit_port;
  df_.global_exit(df_.group_of(router), gi, copy_for(p), exit_router, exit_port);
  const int entry = df_.peer(exit_router, exit_port).id;
  return (exit_router != router) + 1 + df_.min_hops(entry, dst_router(p));
}

int DragonflyRouting::random_group(RouterContext& ctx, int g_src, int g_dst) const {
  const int g = df_.groups();
  const int excluded = g_src == g_dst ? 1 : 2;
  if (g - excluded <= 0) return -1;
  int k = static_cast<int>(ctx.rng().below(static_cast<uint32_t>(g - excluded)));
  const int lo = std::min(g_src, g_dst), hi = std::max(g_src, g_dst);
  if (k >= lo) ++k;
  if (excluded == 2 && k >= hi) ++k;
  return k;
}

int DragonflyRouting::random_intermediate(RouterContext& ctx, int g_src, int g_dst) const {
  if (!via_router_) return random_group(ctx, g_src, g_dst);
  // A router outside the source group, the destination's included (FOGSim's; spec B.7.2).
  const int a = df_.a(), others = (df_.groups() - 1) * a;
  if (others <= 0) return -1;
  const int k = static_cast<int>(ctx.rng().below(static_cast<uint32_t>(others)));
  return k < g_src * a ? k : k + a;
}

int DragonflyRouting::port_to_intermediate(int router, int inter, const Packet& p) const {
  return via_router_ ? df_.min_port_to_router(router, inter, copy_for(p))
                     : df_.min_port_to_group(router, inter, copy_for(p));
}

bool DragonflyRouting::prefer_minimal(RouterContext& ctx, const Packet& p, int inter, bool global_info,
                                      int threshold) const {
  const int r = ctx.router_id();
  const int copy = copy_for(p);
  const int min_first = min_port(r, p);
  const int nm_first = port_to_intermediate(r, inter, p);
  const int gi = via_router_ ? df_.group_of(inter) : inter;
  int q_min = ctx.occupancy(min_first);
  int q_nm = ctx.occupancy(nm_first);
  if (global_info) {
    // Add the queue of the global channel each path takes out of this group.
    int er, ep;
    df_.global_exit(df_.group_of(r), df_.group_of_node(p.dst), copy, er, ep);
    if (ep != min_first || er != r) q_min += ctx.remote_occupancy(er, ep);
    df_.global_exit(df_.group_of(r), gi, copy, er, ep);
    if (ep != nm_first || er != r) q_nm += ctx.remote_occupancy(er, ep);
  }
  const int h_min = df_.min_hops(r, dst_router(p));
  const int h_nm = nonmin_hops(r, inter, p);
  return ugal_prefers_minimal(q_min * h_min, q_nm * h_nm, threshold);
}

RouteResult DragonflyRouting::follow(RouterContext& ctx, Packet& p) const {
  const int r = ctx.router_id();
  if (p.intermediate >= 0 && (via_router_ ? r : df_.group_of(r)) == p.intermediate) p.intermediate = -1;  // reached
  if (p.intermediate >= 0) return take(r, port_to_intermediate(r, p.intermediate, p), p);
  return take(r, min_port(r, p), p);
}

RouteResult DragonflyRouting::take(int router, int port, Packet& p) const {
  RouteResult r{port, 0};
  switch (df_.port_kind(router, port)) {
    case PortKind::Terminal:
      r.slot = 0;
      break;
    case PortKind::Local:
      assert(p.global_hops < static_cast<int>(base_.size()));
      r.slot = base_[p.global_hops] + p.local_hops_in_group;
      assert(r.slot < local_slots_ && "path exceeds the algorithm's VC template");
      ++p.local_hops_in_group;
      ++p.hops;
      break;
    case PortKind::Global:
      r.slot = p.global_hops;
      ++p.global_hops;
      p.local_hops_in_group = 0;
      ++p.hops;
      break;
  }
  return r;
}

ParamSpec valiant_intermediate_param() {
  return string_param("routing.valiant_intermediate", "group",
                      "val, pb: where a Valiant path turns: on reaching a random group other than the source's and "
                      "destination's (group; l g l g l, 3 local VC slots) or at a random router outside the source "
                      "group (router: FOGSim's, 001/002's; l g l l g l, 4 local VC slots as 002 Table I)",
                      {"group", "router"});
}

bool valiant_via_router(const Config& c) { return c.get_string("routing.valiant_intermediate") == "router"; }

}  // namespace ccsim
