// The k-ary n-cube torus and mesh: counts, numbering and wiring match their
// formulas; DOR and Duato routes are minimal; DOR's and Duato's escape channel
// dependency graphs are acyclic; the network delivers, its zero-load latency is
// the hop sum, and uniform traffic stays under the bisection bound 8/k.
#include <gtest/gtest.h>

#include <algorithm>
#include <queue>

#include "channel_dependency.h"
#include "core/network.h"
#include "registry.h"
#include "test_util.h"
#include "topology/torus.h"

using namespace ccsim;
using ccsim::test::dependency_graph;
using ccsim::test::has_cycle;

namespace {

// An 8-ary 2-cube torus, one node per router, short links.
const char* kSmallTorus = R"(
[topology]
kind = "torus"
k = 8
n = 2
c = 1
[router]
vcs = 3
[links]
local_latency = 1
[routing]
algorithm = "dor"
[sim]
warmup = 1000
measure = 4000
)";

struct Shape {
  int k, n, c;
  bool wrap;
};

std::string name_of(const Shape& s) {
  return std::string(s.wrap ? "torus" : "mesh") + "_k" + std::to_string(s.k) + "_n" + std::to_string(s.n) + "_c" +
         std::to_string(s.c);
}

void PrintTo(const Shape& s, std::ostream* os) { *os << name_of(s); }

class TorusShape : public ::testing::TestWithParam<Shape> {};

// Router-to-router hops from `from` to every router, by breadth-first search over the wiring.
std::vector<int> bfs_hops(const Torus& t, int from) {
  std::vector<int> d(t.num_routers(), -1);
  std::queue<int> q;
  d[from] = 0;
  q.push(from);
  while (!q.empty()) {
    const int r = q.front();
    q.pop();
    for (int port = t.c(); port < t.radix(r); ++port) {
      const PortPeer pp = t.peer(r, port);
      if (pp.id >= 0 && d[pp.id] < 0) {
        d[pp.id] = d[r] + 1;
        q.push(pp.id);
      }
    }
  }
  return d;
}

// Follows p's route from its source with a random router context; returns the
// router-to-router ports taken (the last entry is the ejection port).
std::vector<int> walk(RoutingFunction& rf, const Torus& t, int src, int dst, test::RandomContext& ctx) {
  Packet p;
  p.src = src;
  p.dst = dst;
  int router = t.node_router(src), in_port = t.node_port(src);
  std::vector<int> ports;
  for (;;) {
    if (ports.size() > static_cast<size_t>(t.diameter()) + 1) break;  // a loop: the caller's checks fail
    ctx.router = router;
    const RouteResult r = rf.route(ctx, in_port, p);
    ports.push_back(r.port);
    const PortPeer pp = t.peer(router, r.port);
    if (pp.id < 0 || pp.is_node) break;
    router = pp.id;
    in_port = pp.port;
  }
  return ports;
}

std::unique_ptr<Topology> make_topology(const Shape& s, const std::string& routing) {
  Config cfg = test::config(
      {std::string("topology.kind=") + (s.wrap ? "torus" : "mesh"), "topology.k=" + std::to_string(s.k),
       "topology.n=" + std::to_string(s.n), "topology.c=" + std::to_string(s.c), "routing.algorithm=" + routing},
      kSmallTorus);
  return find_topology(cfg.get_string("topology.kind")).make(cfg);
}

std::unique_ptr<RoutingFunction> make_routing(const Topology& t, const Shape& s, const std::string& routing) {
  Config cfg = test::config(
      {std::string("topology.kind=") + (s.wrap ? "torus" : "mesh"), "routing.algorithm=" + routing}, kSmallTorus);
  return find_routing(s.wrap ? "torus" : "mesh", routing).make(cfg, t);
}

// Mean distance between two uniformly random coordinates of one dimension.
double mean_distance(int k, bool wrap) {
  if (!wrap) return (k * k - 1.0) / (3.0 * k);
  return k % 2 == 0 ? k / 4.0 : (k * k - 1.0) / (4.0 * k);
}

}  // namespace

TEST_P(TorusShape, CountsAndDiameterMatchFormulas) {
  const Shape s = GetParam();
  Torus t(s.k, s.n, s.c, s.wrap);
  int routers = 1;
  for (int d = 0; d < s.n; ++d) routers *= s.k;
  EXPECT_EQ(t.num_routers(), routers);
  EXPECT_EQ(t.num_nodes(), routers * s.c);
  for (int r = 0; r < routers; ++r) EXPECT_EQ(t.radix(r), s.c + 2 * s.n);
  EXPECT_EQ(t.diameter(), s.wrap ? s.n * (s.k / 2) : s.n * (s.k - 1));
  EXPECT_EQ(t.grid_shape(), std::vector<int>(s.n, s.k));
  // min_hops and the diameter agree with a search over the wiring.
  int diameter = 0;
  for (int from = 0; from < routers; ++from) {
    const std::vector<int> d = bfs_hops(t, from);
    for (int to = 0; to < routers; ++to) {
      ASSERT_EQ(t.min_hops(from, to), d[to]) << from << "->" << to;
      diameter = std::max(diameter, d[to]);
    }
  }
  EXPECT_EQ(diameter, t.diameter());
}

TEST_P(TorusShape, NumberingFollowsTheGrid) {
  const Shape s = GetParam();
  Torus t(s.k, s.n, s.c, s.wrap);
  for (int r = 0; r < t.num_routers(); ++r) {
    int id = 0, stride = 1;
    for (int d = 0; d < s.n; ++d, stride *= s.k) id += t.coord(r, d) * stride;
    EXPECT_EQ(id, r);
    for (int i = 0; i < s.c; ++i) {
      const int node = r * s.c + i;
      EXPECT_EQ(t.node_router(node), r);
      EXPECT_EQ(t.node_port(node), i);
      EXPECT_TRUE(t.peer(r, i).is_node);
      EXPECT_EQ(t.peer(r, i).id, node);
      EXPECT_EQ(t.port_kind(r, i), PortKind::Terminal);
    }
  }
}

TEST_P(TorusShape, ChannelsArePairedNeighbours) {
  const Shape s = GetParam();
  Torus t(s.k, s.n, s.c, s.wrap);
  for (int r = 0; r < t.num_routers(); ++r) {
    for (int d = 0; d < s.n; ++d) {
      for (int dir : {1, -1}) {
        const int port = t.port(d, dir);
        EXPECT_EQ(port, s.c + 2 * d + (dir > 0 ? 0 : 1));
        EXPECT_EQ(t.port_kind(r, port), PortKind::Local);
        const PortPeer pp = t.peer(r, port);
        const int x = t.coord(r, d) + dir;
        if (!s.wrap && (x < 0 || x >= s.k)) {
          EXPECT_EQ(pp.id, -1) << "mesh edge is unconnected";
          continue;
        }
        ASSERT_GE(pp.id, 0);
        EXPECT_FALSE(pp.is_node);
        EXPECT_EQ(t.coord(pp.id, d), (x + s.k) % s.k);
        for (int e = 0; e < s.n; ++e) {
          if (e != d) {
            EXPECT_EQ(t.coord(pp.id, e), t.coord(r, e));
          }
        }
        EXPECT_EQ(pp.port, t.port(d, -dir));
        const PortPeer back = t.peer(pp.id, pp.port);
        EXPECT_EQ(back.id, r);
        EXPECT_EQ(back.port, port);
      }
    }
  }
}

TEST_P(TorusShape, DorRoutesAreMinimalAndDimensionOrdered) {
  const Shape s = GetParam();
  auto topo = make_topology(s, "dor");
  auto& t = dynamic_cast<Torus&>(*topo);
  auto rf = make_routing(t, s, "dor");
  test::RandomContext ctx(3);
  for (int src = 0; src < t.num_nodes(); ++src)
    for (int dst = 0; dst < t.num_nodes(); ++dst) {
      if (src == dst) continue;
      const std::vector<int> ports = walk(*rf, t, src, dst, ctx);
      ASSERT_EQ(static_cast<int>(ports.size()) - 1, t.min_hops(t.node_router(src), t.node_router(dst)))
          << src << "->" << dst;
      EXPECT_EQ(ports.back(), t.node_port(dst));
      EXPECT_TRUE(
          std::is_sorted(ports.begin(), ports.end() - 1, [&](int a, int b) { return (a - s.c) / 2 < (b - s.c) / 2; }))
          << "dimensions out of order " << src << "->" << dst;
    }
}

TEST_P(TorusShape, DuatoRoutesAreMinimal) {
  const Shape s = GetParam();
  auto topo = make_topology(s, "duato");
  auto& t = dynamic_cast<Torus&>(*topo);
  auto rf = make_routing(t, s, "duato");
  test::RandomContext ctx(5);
  for (int src = 0; src < t.num_nodes(); ++src)
    for (int dst = 0; dst < t.num_nodes(); ++dst)
      for (int trial = 0; trial < 5 && src != dst; ++trial) {
        const std::vector<int> ports = walk(*rf, t, src, dst, ctx);
        ASSERT_EQ(static_cast<int>(ports.size()) - 1, t.min_hops(t.node_router(src), t.node_router(dst)))
            << src << "->" << dst;
        EXPECT_EQ(ports.back(), t.node_port(dst));
      }
}

TEST_P(TorusShape, DorChannelDependencyGraphIsAcyclic) {
  const Shape s = GetParam();
  auto topo = make_topology(s, "dor");
  auto rf = make_routing(*topo, s, "dor");
  EXPECT_EQ(rf->vc_slots(), s.wrap ? 2 : 1);
  for (int vcs : {rf->vc_slots(), rf->vc_slots() + 1}) {
    auto g = dependency_graph(*rf, *topo, vcs, 1);
    EXPECT_GT(g.size(), 0u);
    EXPECT_FALSE(has_cycle(g)) << name_of(s) << " with " << vcs << " VCs";
  }
}

TEST_P(TorusShape, DuatoEscapeChannelDependencyGraphIsAcyclic) {
  // Duato's condition: the escape VCs' dependencies, direct and through
  // adaptive hops in between, form no cycle. The adaptive VCs alone do.
  const Shape s = GetParam();
  auto topo = make_topology(s, "duato");
  auto rf = make_routing(*topo, s, "duato");
  const int escape_slots = s.wrap ? 2 : 1;
  EXPECT_EQ(rf->vc_slots(), escape_slots + 1);
  for (int vcs : {rf->vc_slots(), rf->vc_slots() + 2}) {
    for (int slot = 0; slot < escape_slots; ++slot) EXPECT_EQ(rf->slot_vcs(slot, vcs), 1u << slot);
    EXPECT_EQ(rf->slot_vcs(escape_slots, vcs), ((1u << vcs) - 1) & ~((1u << escape_slots) - 1));
    auto escape = dependency_graph(*rf, *topo, vcs, 10, [&](int slot) { return slot < escape_slots; });
    EXPECT_GT(escape.size(), 0u);
    EXPECT_FALSE(has_cycle(escape)) << name_of(s) << " with " << vcs << " VCs";
  }
  const bool adaptive_cycles = s.wrap ? s.k > 2 : s.n > 1;  // a ring, or turns around a square
  if (adaptive_cycles) {
    EXPECT_TRUE(has_cycle(dependency_graph(*rf, *topo, rf->vc_slots(), 10))) << "adaptive VCs";
  }
}

INSTANTIATE_TEST_SUITE_P(Grids, TorusShape,
                         ::testing::Values(Shape{4, 2, 1, true}, Shape{5, 2, 1, true}, Shape{2, 3, 1, true},
                                           Shape{3, 3, 2, true}, Shape{6, 1, 1, true}, Shape{4, 2, 1, false},
                                           Shape{3, 3, 2, false}, Shape{5, 1, 1, false}),
                         [](const ::testing::TestParamInfo<Shape>& i) { return name_of(i.param); });

TEST(TorusDeadlockFreedom, DorOnOneVcSlotHasACycle) {
  // Without the dateline's second slot, every ring is a cycle of channels
  // (from k = 5: on 4-ary rings, routes of at most two hops, ties split by
  // parity, leave it open).
  const Shape s{5, 2, 1, true};
  auto topo = make_topology(s, "dor");
  test::SingleVcRouting single(make_routing(*topo, s, "dor"));
  EXPECT_TRUE(has_cycle(dependency_graph(single, *topo, 1, 1)));
}

TEST(TorusConfig, RoutingNeedsEnoughVcs) {
  auto error_of = [](const std::vector<std::string>& sets) -> std::string {
    try {
      test::run(sets, kSmallTorus);
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "";
  };
  std::string e = error_of({"routing.algorithm=dor", "router.vcs=1"});
  EXPECT_NE(e.find("router.vcs"), std::string::npos) << e;
  EXPECT_NE(e.find("at least 2"), std::string::npos) << e;
  e = error_of({"routing.algorithm=duato", "router.vcs=2"});
  EXPECT_NE(e.find("at least 3"), std::string::npos) << e;
  e = error_of({"topology.kind=mesh", "routing.algorithm=duato", "router.vcs=1"});
  EXPECT_NE(e.find("at least 2"), std::string::npos) << e;
  e = error_of({"routing.algorithm=duato", "router.voq=true"});
  EXPECT_EQ(e.rfind("router.voq:", 0), 0u) << e;
  e = error_of({"topology.k=1"});
  EXPECT_NE(e.find("topology.k"), std::string::npos) << e;
  e = error_of({"topology.c=40", "topology.n=14"});
  EXPECT_NE(e.find("topology.c"), std::string::npos) << e;
  e = error_of({"routing.algorithm=min"});
  EXPECT_NE(e.find("allowed: dor, duato"), std::string::npos) << e;
}

TEST(TorusNetwork, PaperTorusOf004Builds) {
  Config cfg = load_config(
      std::string(CCSIM_SOURCE_DIR) + "/experiments/torus_16x16.toml",
      {parse_override("traffic.load=0.1"), parse_override("sim.warmup=500"), parse_override("sim.measure=1000")});
  Network net("torus_16x16", cfg);
  EXPECT_EQ(net.num_routers(), 256);
  EXPECT_EQ(net.num_nodes(), 256);
  auto j = net.run();
  EXPECT_FALSE(j["saturated"].get<bool>());
  EXPECT_NEAR(j["accepted_throughput"].get<double>(), 0.1, 0.01);
}

TEST(TorusNetwork, DeliversUnderLoadWithoutDeadlock) {
  // The network checks exactly-once delivery and flit/credit/packet
  // conservation at the end of every run and throws on a violation.
  for (const char* kind : {"torus", "mesh"})
    for (const char* alg : {"dor", "duato"})
      for (const char* sw : {"vct", "wormhole"}) {
        const std::string what = std::string(kind) + " " + alg + " " + sw;
        const std::vector<std::string> common = {std::string("topology.kind=") + kind,
                                                 std::string("routing.algorithm=") + alg,
                                                 std::string("router.switching=") + sw,
                                                 "topology.k=4",
                                                 "traffic.packet_size=4",
                                                 "router.buffer_depth=8"};
        auto sets = common;
        sets.push_back("traffic.load=0.2");
        auto j = test::run(sets, kSmallTorus);
        EXPECT_FALSE(j["saturated"].get<bool>()) << what;
        EXPECT_NEAR(j["accepted_throughput"].get<double>(), 0.2, 0.02) << what;
        sets = common;
        for (const char* s : {"traffic.load=0.9", "sim.measure=3000", "sim.drain_cap=500", "sim.deadlock_cycles=1000"})
          sets.push_back(s);
        j = test::run(sets, kSmallTorus);
        EXPECT_FALSE(j["deadlock"].get<bool>()) << what;
        EXPECT_GT(j["packets_delivered"].get<int64_t>(), 3000) << what;
      }
}

TEST(TorusNetwork, DuatoWormholeOf004SurvivesOverload) {
  // 16-flit packets over 8-flit buffers hold several channels each; Duato's
  // adaptive VCs are then allocated atomically (routing.h).
  Config cfg = load_config(std::string(CCSIM_SOURCE_DIR) + "/experiments/torus_16x16.toml",
                           {parse_override("topology.k=8"), parse_override("traffic.load=0.9"),
                            parse_override("sim.warmup=1000"), parse_override("sim.measure=6000"),
                            parse_override("sim.drain_cap=500"), parse_override("sim.deadlock_cycles=2000")});
  auto j = simulate(cfg);
  EXPECT_FALSE(j["deadlock"].get<bool>());
  EXPECT_GT(j["accepted_throughput"].get<double>(), 0.2);
}

TEST(TorusNetwork, ZeroLoadLatencyIsSumOfHopLatencies) {
  // Each packet crosses hops+1 routers and `hops` channels; uniform traffic
  // averages n * (mean ring or line distance) * N / (N - 1) hops.
  const int R = 3, L = 5, T = 1;
  for (const char* kind : {"torus", "mesh"})
    for (const char* alg : {"dor", "duato"})
      for (int S : {1, 4}) {
        auto j = test::run({std::string("topology.kind=") + kind, std::string("routing.algorithm=") + alg,
                            "traffic.load=0.005", "traffic.packet_size=" + std::to_string(S),
                            "router.latency=" + std::to_string(R), "links.local_latency=" + std::to_string(L),
                            "links.terminal_latency=" + std::to_string(T), "sim.measure=20000"},
                           kSmallTorus);
        const double N = 64;
        const double analytic_hops = 2 * mean_distance(8, std::string(kind) == "torus") * N / (N - 1);
        const double hops = j["avg_hops"].get<double>();
        EXPECT_NEAR(hops, analytic_hops, 0.1) << kind << " " << alg;
        const double expect = 2 * T + (hops + 1) * R + hops * L + (S - 1);
        EXPECT_NEAR(j["avg_packet_latency"].get<double>(), expect, 0.01 * expect) << kind << " " << alg << " S=" << S;
      }
}

TEST(TorusNetwork, UniformThroughputStaysUnderTheBisectionBound) {
  // k-ary 2-cube under uniform traffic: the bisection carries at most 8/k
  // flits/node/cycle (0.5 for k = 16). DOR carries 80% of it; offered far
  // beyond, it stays under the bound (and drops below its peak: see docs/model.md).
  const double bound = 8.0 / 16;
  const std::vector<std::string> sixteen = {"topology.k=16", "router.vcs=4", "sim.warmup=1000", "sim.measure=2000",
                                            "sim.drain_cap=500"};
  auto sets = sixteen;
  sets.push_back("traffic.load=0.4");
  auto j = test::run(sets, kSmallTorus);
  EXPECT_NEAR(j["accepted_throughput"].get<double>(), 0.4, 0.01);
  for (const char* alg : {"dor", "duato"}) {
    sets = sixteen;
    sets.push_back("traffic.load=0.9");
    sets.push_back(std::string("routing.algorithm=") + alg);
    j = test::run(sets, kSmallTorus);
    EXPECT_LE(j["accepted_throughput"].get<double>(), bound * 1.02) << alg;
    EXPECT_GT(j["accepted_throughput"].get<double>(), 0.1) << alg;
    EXPECT_TRUE(j["saturated"].get<bool>()) << alg;
  }
}

TEST(TorusNetwork, DuatoBalancesARandomPermutationBetterThanDor) {
  // A permutation loads DOR's fixed paths unevenly; minimal adaptive routing
  // spreads each flow over its minimal paths.
  const std::vector<std::string> sets = {"traffic.pattern=permutation", "traffic.load=0.4"};
  auto dor = test::run({sets[0], sets[1], "routing.algorithm=dor"}, kSmallTorus);
  auto duato = test::run({sets[0], sets[1], "routing.algorithm=duato"}, kSmallTorus);
  EXPECT_FALSE(duato["saturated"].get<bool>());
  EXPECT_NEAR(duato["accepted_throughput"].get<double>(), 0.4, 0.01);
  EXPECT_GE(duato["accepted_throughput"].get<double>(), dor["accepted_throughput"].get<double>());
  EXPECT_LT(duato["avg_packet_latency"].get<double>(), dor["avg_packet_latency"].get<double>());
}
