// Dragonfly (Kim et al., ISCA'08) as used in ../shared/papers/002 section IV and
// 003 section 4: groups of `a` routers, complete graph inside a group, `h`
// global channels per router, `p` nodes per router.
//
// Router r: group G = r / a, index i = r % a.
// Ports of every router:
//   [0, p-1]            terminals (node G*a*p + i*p + port)
//   [p, p+a-2]          local: to router index j of the group, port p + (j < i ? j : j-1)
//   [p+a-1, p+a+h-2]    global: group-output j = i*h + (port - (p+a-1))
// Group-output j leads to target group t(G, j):
//   palmtree:    t = (G - j - 1) mod g        (Camarero et al.)
//   consecutive: t = j if j < G, else j + 1
// With g - 1 < a*h, group-outputs repeat: copy c = j / (g-1) of logical output j % (g-1);
// (g - 1) must divide a*h so every pair of groups gets the same number of links.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "topology/topology.h"

namespace ccsim {

class Dragonfly : public Topology {
 public:
  enum class Arrangement { Palmtree, Consecutive };
  Dragonfly(int p, int a, int h, int groups, Arrangement arr);
  static Dragonfly from_config(const Config& cfg);

  int num_routers() const override { return a_ * g_; }
  int num_nodes() const override { return p_ * a_ * g_; }
  int radix(int) const override { return p_ + a_ - 1 + h_; }
  PortKind port_kind(int router, int port) const override;
  PortPeer peer(int router, int port) const override;
  int node_router(int node) const override { return node / p_; }
  int node_port(int node) const override { return node % p_; }
  int min_hops(int from_router, int to_router) const override {
    return hops_.empty() ? compute_min_hops(from_router, to_router)
                         : hops_[static_cast<size_t>(from_router) * num_routers() + to_router];
  }
  int diameter() const override { return g_ > 1 ? 3 : (a_ > 1 ? 1 : 0); }

  int p() const { return p_; }
  int a() const { return a_; }
  int h() const { return h_; }
  int groups() const { return g_; }
  int group_of(int router) const { return router / a_; }
  int index_in_group(int router) const { return router % a_; }
  int group_of_node(int node) const { return node / (p_ * a_); }
  int copies() const { return g_ > 1 ? (a_ * h_) / (g_ - 1) : 0; }

  int local_port(int from_index, int to_index) const { return p_ + (to_index < from_index ? to_index : to_index - 1); }
  int first_global_port() const { return p_ + a_ - 1; }
  // The router (global id) and its global port that carry copy `copy` of the
  // channel from group `from` to group `to` (from != to).
  void global_exit(int from, int to, int copy, int& router, int& port) const;
  // Next port on a minimal path from `router` to router `target` (router != target).
  // `copy` selects among parallel global channels when groups < a*h+1.
  int min_port_to_router(int router, int target, int copy) const;
  // Next port on a minimal path from `router` to any router of `group`.
  int min_port_to_group(int router, int group, int copy) const;
  // Router-to-router hops from `router` to the first router of group `group` reached minimally.
  int hops_to_group(int router, int group, int copy) const;

  // Router of group `to` where copy 0 of the channel from group `from` lands.
  int entry_router(int from, int to) const { return entry_[static_cast<size_t>(from) * g_ + to]; }

 private:
  int compute_min_hops(int from, int to) const;
  int target_group(int G, int j) const;  // logical group-output j (< g-1)
  int group_output_to(int G, int t) const;
  int p_, a_, h_, g_;
  Arrangement arr_;
  std::vector<int16_t> port_to_group_;  // [router * g + group], copy 0: the hot path
  std::vector<int> entry_;              // [from group * g + to group]
  std::vector<uint8_t> hops_;           // [router * routers + router], small networks only
};

}  // namespace ccsim
