// Shared machinery of the dragonfly routing algorithms (papers 002 section IV,
// 003 section 4): minimal next hops and deadlock-free VC slots.
//
// VC slots follow one template per algorithm: a path visits groups in order
// (source, [intermediate], destination) and each group contributes a fixed
// number of local slots; global hop k uses global slot k. A packet's slot on a
// local hop is base[global hops so far] + local hops taken in this group, so
// slots only grow along any path and the channel dependency graph is acyclic.
// MIN: l g l -> 2 local / 1 global slots; VAL and UGAL: l g l g l -> 3/2;
// PAR: l l g l g l -> 4/2 (one extra local hop in the source group).
#pragma once
#include <vector>

#include "routing/routing.h"
#include "topology/dragonfly.h"

namespace ccsim {

class DragonflyRouting : public RoutingFunction {
 public:
  // local_slots_per_group[i]: local hops allowed in the i-th group visited.
  DragonflyRouting(const Dragonfly& df, std::vector<int> local_slots_per_group);
  int vc_slots() const override { return slots_; }

 protected:
  // Parallel global channel used by this packet when groups < a*h+1.
  int copy_for(const Packet& p) const { return df_.copies() > 1 ? (p.src + p.dst) % df_.copies() : 0; }
  int dst_router(const Packet& p) const { return df_.node_router(p.dst); }
  // Next port on a minimal path to the destination node.
  int min_port(int router, const Packet& p) const;
  // Router-to-router hops of the Valiant path router -> group gi -> destination.
  int nonmin_hops(int router, int gi, const Packet& p) const;
  // A random intermediate group, neither the source's nor the destination's; -1 if none.
  int random_group(RouterContext& ctx, int g_src, int g_dst) const;
  // UGAL's choice at router `r` between the minimal path and the Valiant path
  // through group gi: minimal iff q_min * H_min <= q_nm * H_nm + threshold, with
  // q the queue of the first hop (local information) or the sum of the first
  // hop's and the global channel's queues (global information).
  bool prefer_minimal(RouterContext& ctx, const Packet& p, int gi, bool global_info, int threshold) const;
  // Continues a packet on its Valiant path (towards p.intermediate) or minimally.
  RouteResult follow(RouterContext& ctx, Packet& p) const;
  // Records the hop through `port` in p's routing state and returns its VC slot.
  RouteResult take(int router, int port, Packet& p) const;

  const Dragonfly& df_;
  std::vector<int> base_;  // first local slot of the i-th group visited
  int local_slots_, global_slots_, slots_;
};

}  // namespace ccsim
