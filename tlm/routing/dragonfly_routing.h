// Shared machinery of the dragonfly routing algorithms (papers 002 section IV,
// 003 section 4): minimal next hops and deadlock-free VC slots.
//
// VC slots follow one template per algorithm: a path visits groups in order
// (source, [intermediate], destination) and each group contributes a fixed
// number of local slots; global hop k uses global slot k. A packet's slot on a
// local hop is base[global hops so far] + local hops taken in this group, so
// slots only grow along any path and the channel dependency graph is acyclic.
// MIN: l g l -> 2 local / 1 global slots; VAL and UGAL: l g l g l -> 3/2;
// PAR: l l g l g l -> 4/2 (one extra local hop in the source group); VAL and
// PB through an intermediate router: l g l l g l -> 4/2 (two in its group).
#pragma once
#include <vector>

#include "core/params.h"
#include "routing/routing.h"
#include "topology/dragonfly.h"

namespace ccsim {

class DragonflyRouting : public RoutingFunction {
 public:
  // local_slots_per_group[i]: local hops allowed in the i-th group visited. via_router: a
  // Valiant path turns at a random router of its intermediate group (p.intermediate is a
  // router), else on reaching the group (p.intermediate is a group).
  DragonflyRouting(const Dragonfly& df, std::vector<int> local_slots_per_group, bool via_router = false);
  int vc_slots() const override { return slots_; }

 protected:
  // Parallel global channel used by this packet when groups < a*h+1.
  int copy_for(const Packet& p) const { return df_.copies() > 1 ? (p.src + p.dst) % df_.copies() : 0; }
  int dst_router(const Packet& p) const { return df_.node_router(p.dst); }
  // Next port on a minimal path to the destination node.
  int min_port(int router, const Packet& p) const;
  // Router-to-router hops of the Valiant path router -> intermediate -> destination.
  int nonmin_hops(int router, int inter, const Packet& p) const;
  // A random intermediate group, neither the source's nor the destination's; -1 if none.
  int random_group(RouterContext& ctx, int g_src, int g_dst) const;
  // A Valiant intermediate: random_group(), or (via_router) a random router outside the source group.
  int random_intermediate(RouterContext& ctx, int g_src, int g_dst) const;
  // Whether a Valiant path through `inter` takes a second global hop (misrouted_fraction: 002's
  // "globally misrouted"); a router of the destination group as intermediate does not.
  bool misroutes_globally(int inter, int g_dst) const {
    return inter >= 0 && (via_router_ ? df_.group_of(inter) : inter) != g_dst;
  }
  // The first hop from `router` towards the intermediate `inter` (a group, or a router).
  int port_to_intermediate(int router, int inter, const Packet& p) const;
  // UGAL's choice at router `r` between the minimal path and the Valiant path
  // through intermediate `inter`: minimal iff q_min * H_min <= q_nm * H_nm + threshold,
  // with q the queue of the first hop (local information) or the sum of the first
  // hop's and the global channel's queues (global information).
  bool prefer_minimal(RouterContext& ctx, const Packet& p, int inter, bool global_info, int threshold) const;
  // Continues a packet on its Valiant path (towards p.intermediate) or minimally.
  RouteResult follow(RouterContext& ctx, Packet& p) const;
  // Records the hop through `port` in p's routing state and returns its VC slot.
  RouteResult take(int router, int port, Packet& p) const;

  const Dragonfly& df_;
  std::vector<int> base_;  // first local slot of the i-th group visited
  int local_slots_, global_slots_, slots_;
  bool via_router_;
};

// routing.valiant_intermediate for the algorithms whose Valiant path may turn at a router.
ParamSpec valiant_intermediate_param();
bool valiant_via_router(const Config& c);

}  // namespace ccsim
