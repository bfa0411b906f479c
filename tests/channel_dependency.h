// Channel dependency graphs (Dally & Seitz) of a routing function on a small
// topology. Paths are explored hop by hop with random queue occupancies, so
// every adaptive choice is taken many times.
#pragma once
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "routing/routing.h"
#include "topology/topology.h"

namespace ccsim::test {

// A router context whose queues are random: adaptive algorithms take every branch.
class RandomContext : public RouterContext {
 public:
  explicit RandomContext(uint64_t seed) : rng_(seed) {}
  int router_id() const override { return router; }
  int occupancy(int) override { return static_cast<int>(rng_.below(200)); }
  int remote_occupancy(int, int) override { return static_cast<int>(rng_.below(200)); }
  Rng& rng() override { return rng_; }
  int router = 0;

 private:
  Rng rng_;
};

// Vertex: (router, output port, VC); VCs of one slot are interchangeable, so
// each hop depends on every VC of the next hop's slot.
using Vertex = std::tuple<int, int, int>;

// Iterative DFS; every vertex is a key of g.
inline bool has_cycle(const std::map<Vertex, std::set<Vertex>>& g) {
  std::map<Vertex, int> state;  // 0 new, 1 on the stack, 2 done
  for (auto& entry : g) {
    if (state[entry.first]) continue;
    std::vector<std::pair<Vertex, std::set<Vertex>::const_iterator>> stack{{entry.first, entry.second.begin()}};
    state[entry.first] = 1;
    while (!stack.empty()) {
      auto& [v, it] = stack.back();
      if (it == g.at(v).end()) {
        state[v] = 2;
        stack.pop_back();
        continue;
      }
      const Vertex w = *it++;
      if (state[w] == 1) return true;
      if (state[w] == 0) {
        state[w] = 1;
        stack.push_back({w, g.at(w).begin()});
      }
    }
  }
  return false;
}

inline std::map<Vertex, std::set<Vertex>> dependency_graph(RoutingFunction& rf, const Topology& df, int vcs, int trials) {
  std::map<Vertex, std::set<Vertex>> g;
  RandomContext ctx(7);
  const int slots = rf.vc_slots();
  for (int src = 0; src < df.num_nodes(); ++src) {
    for (int dst = 0; dst < df.num_nodes(); ++dst) {
      if (src == dst) continue;
      for (int t = 0; t < trials; ++t) {
        Packet p;
        p.src = src;
        p.dst = dst;
        int router = df.node_router(src), in_port = df.node_port(src);
        std::vector<Vertex> prev;
        for (int hop = 0;; ++hop) {
          if (hop >= 4 * df.diameter() + 8) throw std::runtime_error("routing loop");
          ctx.router = router;
          RouteResult r = rf.route(ctx, in_port, p);
          std::vector<Vertex> cur;
          for (int v = r.slot; v < vcs; v += slots) cur.emplace_back(router, r.port, v);
          EXPECT_FALSE(cur.empty());
          for (auto& a : prev)
            for (auto& b : cur) g[a].insert(b);
          for (auto& b : cur) g[b];
          PortPeer pp = df.peer(router, r.port);
          if (pp.is_node) {
            EXPECT_EQ(pp.id, dst);
            break;
          }
          prev = cur;
          router = pp.id;
          in_port = pp.port;
        }
      }
    }
  }
  return g;
}


}  // namespace ccsim::test
