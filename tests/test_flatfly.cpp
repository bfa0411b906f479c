// The flattened butterfly: counts and wiring match their formulas for the
// setups of paper 000, MIN is dimension order, every routing algorithm is
// deadlock-free and delivers, and zero-load latency is the sum of hop latencies.
#include <gtest/gtest.h>

#include <set>

#include "channel_dependency.h"
#include "registry.h"
#include "test_util.h"
#include "topology/flatfly.h"

using namespace ccsim;

namespace {

// A 32-node 2D flattened butterfly: 4x4 routers, 2 nodes each, radix 8.
const char* kSmallFlatfly = R"(
[topology]
kind = "flatfly"
k = 4
n = 2
c = 2
[router]
vcs = 4
[sim]
warmup = 1000
measure = 3000
)";

// Paper 000's 16-node 1D flattened butterfly: 4 routers, 4 nodes each.
const char* kFlatfly16 = R"(
[topology]
kind = "flatfly"
k = 4
n = 1
c = 4
[router]
vcs = 4
[sim]
warmup = 1000
measure = 3000
)";

struct PaperShape {
  const char* name;
  int k, n, c, routers, nodes, radix;
};

class PaperSetup : public ::testing::TestWithParam<PaperShape> {};

const std::vector<std::string> kAlgorithms = {"min", "val", "ugal_l", "ugal_g"};

}  // namespace

TEST_P(PaperSetup, CountsAndRadixMatchFormulas) {
  const PaperShape s = GetParam();
  FlattenedButterfly fb(s.k, s.n, s.c);
  EXPECT_EQ(fb.num_routers(), s.routers);
  EXPECT_EQ(fb.num_nodes(), s.nodes);
  EXPECT_EQ(fb.radix(0), s.radix);
  EXPECT_EQ(fb.radix(0), s.c + s.n * (s.k - 1));
  EXPECT_EQ(fb.diameter(), s.n);
  EXPECT_EQ(fb.grid_shape(), std::vector<int>(s.n, s.k));
}

// Paper 000 V-A; FB256's "radix-16" cannot hold 16 nodes and 15 router links
// (specs A.11-#14): its radix is 31.
INSTANTIATE_TEST_SUITE_P(Paper000, PaperSetup,
                         ::testing::Values(PaperShape{"FB16", 4, 1, 4, 4, 16, 7},
                                           PaperShape{"FB256", 16, 1, 16, 16, 256, 31},
                                           PaperShape{"FB512", 8, 2, 8, 64, 512, 22}),
                         [](const ::testing::TestParamInfo<PaperShape>& i) { return i.param.name; });

TEST(FlattenedButterfly, RoutersAndNodesAreNumberedOnTheGrid) {
  FlattenedButterfly fb(3, 3, 2);
  for (int r = 0; r < fb.num_routers(); ++r) {
    EXPECT_EQ(r, fb.coordinate(r, 0) + 3 * (fb.coordinate(r, 1) + 3 * fb.coordinate(r, 2)));
    for (int port = 0; port < fb.c(); ++port) {
      PortPeer pp = fb.peer(r, port);
      EXPECT_TRUE(pp.is_node);
      EXPECT_EQ(pp.id, r * fb.c() + port);
      EXPECT_EQ(fb.node_router(pp.id), r);
      EXPECT_EQ(fb.node_port(pp.id), port);
    }
  }
}

TEST(FlattenedButterfly, ChannelsArePairedAndReachEveryRouterDifferingInOneCoordinate) {
  for (auto [k, n, c] : {std::tuple{4, 2, 2}, std::tuple{3, 3, 1}, std::tuple{8, 2, 8}, std::tuple{16, 1, 16}}) {
    FlattenedButterfly fb(k, n, c);
    for (int r = 0; r < fb.num_routers(); ++r) {
      std::set<int> neighbours;
      for (int port = c; port < fb.radix(r); ++port) {
        const int dim = (port - c) / (k - 1);
        PortPeer pp = fb.peer(r, port);
        ASSERT_FALSE(pp.is_node);
        PortPeer back = fb.peer(pp.id, pp.port);
        EXPECT_EQ(back.id, r);
        EXPECT_EQ(back.port, port);
        EXPECT_EQ(fb.port_kind(r, port), PortKind::Local);
        EXPECT_EQ(fb.port_kind(pp.id, pp.port), PortKind::Local);
        EXPECT_EQ(fb.min_hops(r, pp.id), 1);
        EXPECT_NE(fb.coordinate(r, dim), fb.coordinate(pp.id, dim)) << "port " << port << " is in dimension " << dim;
        EXPECT_EQ(fb.port_to(r, dim, fb.coordinate(pp.id, dim)), port);
        neighbours.insert(pp.id);
      }
      EXPECT_EQ(neighbours.size(), static_cast<size_t>(n * (k - 1)));
    }
  }
}

TEST(FlattenedButterfly, MinRoutesAreDimensionOrderedAndMinimal) {
  // Every pair of nodes of a 3x3x3 flattened butterfly: one channel per
  // coordinate in which the routers differ (from the numbering r = x0 + 3*x1
  // + 9*x2), taken in increasing dimension, then the ejection channel.
  Config cfg = test::config({"topology.k=3", "topology.n=3"}, kSmallFlatfly);
  auto topo = find_topology("flatfly").make(cfg);
  auto& fb = dynamic_cast<FlattenedButterfly&>(*topo);
  auto rf = find_routing("flatfly", "min").make(cfg, fb);
  test::RandomContext ctx(3);
  int longest = 0;
  for (int src = 0; src < fb.num_nodes(); ++src)
    for (int dst = 0; dst < fb.num_nodes(); ++dst) {
      if (src == dst) continue;
      int differing = 0;
      for (int a = fb.node_router(src), b = fb.node_router(dst), d = 0; d < 3; ++d, a /= 3, b /= 3)
        differing += a % 3 != b % 3;
      Packet p;
      p.src = src;
      p.dst = dst;
      int router = fb.node_router(src), in_port = fb.node_port(src), routed = 0, last_dim = -1;
      for (;;) {
        ctx.router = router;
        RouteResult r = rf->route(ctx, in_port, p);
        ++routed;
        EXPECT_EQ(r.slot, 0);
        PortPeer pp = fb.peer(router, r.port);
        if (pp.is_node) {
          EXPECT_EQ(pp.id, dst);
          break;
        }
        const int dim = (r.port - fb.c()) / (fb.k() - 1);
        EXPECT_GT(dim, last_dim) << "dimension order";
        last_dim = dim;
        router = pp.id;
        in_port = pp.port;
        ASSERT_LE(routed, fb.n());
      }
      EXPECT_EQ(routed, differing + 1) << src << " -> " << dst;
      EXPECT_EQ(p.hops, differing);
      EXPECT_EQ(fb.min_hops(fb.node_router(src), fb.node_router(dst)), differing);
      longest = std::max(longest, differing);
    }
  EXPECT_EQ(longest, fb.diameter());
}

TEST(FlattenedButterfly, BadShapesAreConfigErrorsNamingTheKey) {
  auto key_of = [](int k, int n, int c) {
    try {
      FlattenedButterfly fb(k, n, c);
    } catch (const ConfigError& e) {
      return e.key();
    }
    return std::string("accepted");
  };
  EXPECT_EQ(key_of(1, 2, 2), "topology.k");
  EXPECT_EQ(key_of(4, 0, 2), "topology.n");
  EXPECT_EQ(key_of(4, 2, 0), "topology.c");
  EXPECT_EQ(key_of(16, 4, 4), "accepted");    // radix 4 + 4*15 = 64, the router's limit
  EXPECT_EQ(key_of(16, 4, 5), "topology.k");  // radix 65
  EXPECT_EQ(key_of(2, 40, 1), "topology.n");  // 2^40 routers
}

TEST(FlatflyDeadlockFreedomCheck, DetectsACycleWhenValiantPhasesShareOneSlot) {
  Config cfg = test::config({"routing.algorithm=val", "topology.k=3", "topology.c=1"}, kSmallFlatfly);
  auto topo = find_topology("flatfly").make(cfg);
  test::SingleVcRouting broken(find_routing("flatfly", "val").make(cfg, *topo));
  EXPECT_TRUE(test::has_cycle(test::dependency_graph(broken, *topo, 1, 20)));
}

class FlatflyNetwork : public ::testing::TestWithParam<std::string> {};

TEST_P(FlatflyNetwork, DeliversEveryPacket) {
  // The network checks exactly-once delivery and conservation at the end of the run.
  auto j = test::run({"routing.algorithm=" + GetParam(), "traffic.load=0.3", "traffic.packet_size=4"}, kSmallFlatfly);
  EXPECT_FALSE(j["deadlock"].get<bool>());
  EXPECT_FALSE(j["saturated"].get<bool>());
  EXPECT_GT(j["packets_delivered"].get<int64_t>(), 5000);
  EXPECT_NEAR(j["accepted_throughput"].get<double>(), 0.3, 0.03 * 0.3);
}

INSTANTIATE_TEST_SUITE_P(Flatfly, FlatflyNetwork, ::testing::ValuesIn(kAlgorithms),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

TEST(FlatflyPhysics, MinZeroLoadLatencyIsSumOfHopLatencies) {
  // From the structure alone: of the N-1 destinations, c-1 share the source's
  // router; the other routers (c nodes each) differ in h coordinates, and the
  // sum of h over all routers is n(k-1)k^(n-1). A packet crossing h channels
  // passes h+1 routers.
  const int k = 4, n = 2, c = 2, R = 5, lt = 2, ll = 20;
  const double N = c * k * k;
  const double mean_channels = c * n * (k - 1) * k / (N - 1);
  const double expect = 2 * lt + R + mean_channels * (R + ll);
  auto j = test::run({"traffic.load=0.005", "router.latency=5", "links.terminal_latency=2", "links.local_latency=20",
                      "sim.measure=20000"},
                     kSmallFlatfly);
  EXPECT_NEAR(j["avg_packet_latency"].get<double>(), expect, 0.03 * expect);
  EXPECT_NEAR(j["avg_hops"].get<double>(), mean_channels, 0.05);
  EXPECT_FALSE(j["saturated"].get<bool>());
}

TEST(FlatflyRouting, UgalMatchesMinAtLowLoadAndValiantMisroutes) {
  auto min = test::run({"routing.algorithm=min", "traffic.load=0.05"}, kSmallFlatfly);
  auto ugal = test::run({"routing.algorithm=ugal_l", "traffic.load=0.05"}, kSmallFlatfly);
  auto val = test::run({"routing.algorithm=val", "traffic.load=0.05"}, kSmallFlatfly);
  EXPECT_NEAR(ugal["avg_packet_latency"].get<double>(), min["avg_packet_latency"].get<double>(),
              0.05 * min["avg_packet_latency"].get<double>());
  EXPECT_LT(ugal["misrouted_fraction"].get<double>(), 0.05);
  // Valiant through a random router of 16: the draw is the source or destination router 1/8 of the time.
  EXPECT_GT(val["misrouted_fraction"].get<double>(), 0.8);
  EXPECT_GT(val["avg_hops"].get<double>(), min["avg_hops"].get<double>() + 0.8);
}

TEST(FlatflyRouting, AdaptiveRoutingBeatsMinOnTheWorstCase) {
  // ADV+1 on the 16-node 1D flattened butterfly: the 4 nodes of router i send
  // to router i+1, all over one channel under MIN: at most 1/4 flit/node/cycle.
  // With 2x speedup (paper 000 V-A) the queue builds in the output queue, where
  // UGAL sees it; at speedup 1 it builds in the input buffers and UGAL-L only
  // sees the ~22 flits in flight on the 10-cycle channel, under its threshold.
  const double bound = 0.25;
  auto min = test::run({"routing.algorithm=min", "traffic.pattern=adv", "traffic.load=0.45"}, kFlatfly16);
  EXPECT_LE(min["accepted_throughput"].get<double>(), bound * 1.02);
  EXPECT_TRUE(min["saturated"].get<bool>());
  for (const char* alg : {"ugal_l", "ugal_g"}) {
    auto j = test::run(
        {std::string("routing.algorithm=") + alg, "traffic.pattern=adv", "traffic.load=0.45", "router.speedup=2"},
        kFlatfly16);
    EXPECT_GT(j["accepted_throughput"].get<double>(), 1.6 * bound) << alg;
    EXPECT_GT(j["misrouted_fraction"].get<double>(), 0.3) << alg;
  }
}
