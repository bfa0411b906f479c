// For every routing algorithm, the channel dependency graph of a small
// dragonfly has no cycle (Dally & Seitz). Paths are explored hop by hop with
// random queue occupancies, so every adaptive choice is taken many times.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "registry.h"
#include "test_util.h"
#include "topology/dragonfly.h"

using namespace ccsim;

namespace {

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
bool has_cycle(const std::map<Vertex, std::set<Vertex>>& g) {
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

std::map<Vertex, std::set<Vertex>> dependency_graph(RoutingFunction& rf, const Dragonfly& df, int vcs, int trials) {
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
          if (hop >= 16) throw std::runtime_error("routing loop");
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

}  // namespace

class DeadlockFreedom : public ::testing::TestWithParam<std::string> {};

TEST_P(DeadlockFreedom, ChannelDependencyGraphIsAcyclic) {
  Config cfg = test::config({"routing.algorithm=" + GetParam(), "topology.p=1", "topology.a=3", "topology.h=1"});
  auto topo = find_topology("dragonfly").make(cfg);
  auto& df = dynamic_cast<Dragonfly&>(*topo);
  auto rf = find_routing("dragonfly", GetParam()).make(cfg, df);
  for (int vcs : {rf->vc_slots(), rf->vc_slots() + 1}) {
    auto g = dependency_graph(*rf, df, vcs, 20);
    EXPECT_GT(g.size(), 0u);
    EXPECT_FALSE(has_cycle(g)) << GetParam() << " with " << vcs << " VCs";
  }
}

INSTANTIATE_TEST_SUITE_P(Dragonfly, DeadlockFreedom, ::testing::Values("min", "val", "ugal_l", "ugal_g", "par"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

TEST(DeadlockFreedomCheck, DetectsACycleInABrokenAssignment) {
  Config cfg = test::config({"routing.algorithm=val", "topology.p=1", "topology.a=3", "topology.h=1"});
  auto topo = find_topology("dragonfly").make(cfg);
  auto& df = dynamic_cast<Dragonfly&>(*topo);
  test::SingleVcRouting broken(find_routing("dragonfly", "val").make(cfg, df));
  EXPECT_TRUE(has_cycle(dependency_graph(broken, df, 1, 20)));
}
