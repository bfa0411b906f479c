// Traffic patterns send where their definitions say.
#include <gtest/gtest.h>

#include <numeric>
#include <set>

#include "registry.h"
#include "test_util.h"
#include "traffic/node_set.h"
#include "traffic/patterns.h"
#include "traffic/permutation_patterns.h"

using namespace ccsim;

TEST(Patterns, UniformNeverSendsToItselfAndCoversAll) {
  UniformPattern u(16);
  Rng rng(3);
  std::set<int> seen;
  for (int i = 0; i < 4000; ++i) {
    const int d = u.dest(5, rng);
    ASSERT_NE(d, 5);
    ASSERT_GE(d, 0);
    ASSERT_LT(d, 16);
    seen.insert(d);
  }
  EXPECT_EQ(seen.size(), 15u);
}

TEST(Patterns, AdversarialTargetsTheGroupAtTheOffset) {
  AdversarialPattern adv(72, 8, 1);  // 9 groups of 8 nodes
  Rng rng(3);
  for (int src = 0; src < 72; ++src)
    for (int i = 0; i < 50; ++i) EXPECT_EQ(adv.dest(src, rng) / 8, (src / 8 + 1) % 9);
}

TEST(Patterns, PermutationIsABijectionWithoutFixedPoints) {
  PermutationPattern perm(1056, 42);
  Rng rng(1);
  std::set<int> dests;
  for (int s = 0; s < 1056; ++s) {
    const int d = perm.dest(s, rng);
    EXPECT_NE(d, s);
    dests.insert(d);
  }
  EXPECT_EQ(dests.size(), 1056u);
  PermutationPattern other(1056, 43);
  EXPECT_NE(perm.permutation(), other.permutation());
}

TEST(Patterns, HotspotSourcesAndDestinationsAreDisjointAndSeeded) {
  HotspotPattern hs(1056, 60, 4, 7);
  int sources = 0;
  for (int n = 0; n < 1056; ++n) sources += hs.is_source(n);
  EXPECT_EQ(sources, 60);
  ASSERT_EQ(hs.destinations().size(), 4u);
  for (int d : hs.destinations()) EXPECT_FALSE(hs.is_source(d));
  Rng rng(1);
  std::set<int> hit;
  for (int i = 0; i < 400; ++i) hit.insert(hs.dest(0, rng));
  EXPECT_EQ(hit, std::set<int>(hs.destinations().begin(), hs.destinations().end()));
  EXPECT_EQ(HotspotPattern(1056, 60, 4, 7).destinations(), hs.destinations());
}

TEST(Patterns, BernoulliGapsGiveTheOfferedRate) {
  Rng rng(11);
  const double p = 0.03;
  double total = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) total += static_cast<double>(rng.geometric(p));
  EXPECT_NEAR(n / total, p, 0.01 * p);
}

namespace {

// A 4x4 grid of routers with 2 nodes each, numbered as grid topologies number them.
class GridStub : public Topology {
 public:
  int num_routers() const override { return 16; }
  int num_nodes() const override { return 32; }
  int radix(int) const override { return 2; }
  PortKind port_kind(int, int) const override { return PortKind::Terminal; }
  PortPeer peer(int r, int p) const override { return {true, r * 2 + p, -1}; }
  int node_router(int n) const override { return n / 2; }
  int node_port(int n) const override { return n % 2; }
  int min_hops(int, int) const override { return 0; }
  int diameter() const override { return 0; }
  std::vector<int> grid_shape() const override { return {4, 4}; }
};

bool is_bijection(const std::vector<int>& perm) {
  std::vector<int> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> ids(perm.size());
  std::iota(ids.begin(), ids.end(), 0);
  return sorted == ids;
}

}  // namespace

TEST(Patterns, BitPermutationsAreBijectionsWithTheDefinitionsOf004) {
  for (const char* name : {"bitrev", "shuffle", "butterfly", "transpose"})
    EXPECT_TRUE(is_bijection(bit_permutation(name, 256))) << name;
  // 8-bit node ids
  EXPECT_EQ(bit_permutation("bitrev", 256)[0x01], 0x80);
  EXPECT_EQ(bit_permutation("bitrev", 256)[0x0d], 0xb0);
  EXPECT_EQ(bit_permutation("shuffle", 256)[0x81], 0x03);
  EXPECT_EQ(bit_permutation("butterfly", 256)[0x01], 0x80);
  EXPECT_EQ(bit_permutation("butterfly", 256)[0x7e], 0x7e);
  EXPECT_EQ(bit_permutation("transpose", 256)[0x12], 0x21);
  EXPECT_THROW(bit_permutation("bitrev", 72), ConfigError);
  EXPECT_THROW(bit_permutation("transpose", 128), ConfigError);
}

TEST(Patterns, FixedPointsOfAPermutationAreSilent) {
  PermutationPattern p(bit_permutation("bitrev", 16));
  EXPECT_FALSE(p.is_source(0));  // 0000 -> 0000
  EXPECT_FALSE(p.is_source(9));  // 1001 -> 1001
  EXPECT_TRUE(p.is_source(1));
}

TEST(Patterns, TornadoAdvancesEveryCoordinateByHalfTheRadixMinusOne) {
  GridStub grid;
  const std::vector<int> perm = tornado_permutation(grid);
  EXPECT_TRUE(is_bijection(perm));
  // router (x, y) -> (x+1, y+1) mod 4 on a 4x4 grid; node index kept
  for (int n = 0; n < 32; ++n) {
    const int r = n / 2, x = r % 4, y = r / 4;
    EXPECT_EQ(perm[n], (((x + 1) % 4) + 4 * ((y + 1) % 4)) * 2 + n % 2);
  }
  auto df = find_topology("dragonfly").make(test::config({}));
  EXPECT_THROW(tornado_permutation(*df), ConfigError);
}

TEST(Patterns, WorstCaseSendsFromEachRouterToTheNextInBothForms) {
  AdversarialPattern perm(32, 2, 1, true), any(32, 2, 1, false);
  Rng rng(5);
  std::vector<int> image;
  for (int s = 0; s < 32; ++s) {
    image.push_back(perm.dest(s, rng));
    EXPECT_EQ(image.back(), (s / 2 + 1) % 16 * 2 + s % 2);
    for (int i = 0; i < 20; ++i) EXPECT_EQ(any.dest(s, rng) / 2, (s / 2 + 1) % 16);
  }
  EXPECT_TRUE(is_bijection(image));
}

TEST(Patterns, HotRegionSendsAQuarterOfTheTrafficToTheFirstEighth) {
  HotRegionPattern hr(1024, 0.25, 0.125);
  ASSERT_EQ(hr.region_nodes(), 128);
  Rng rng(9);
  int hot = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const int src = static_cast<int>(rng.below(1024));
    const int d = hr.dest(src, rng);
    ASSERT_NE(d, src);
    hot += d < 128;
  }
  // 25% directed + 75% uniform of which 1/8 lands in the region: 0.34375
  EXPECT_NEAR(static_cast<double>(hot) / n, 0.25 + 0.75 * 0.125, 0.01);
}

// 002 Fig. 6: a share adv_fraction of the messages goes ADV+1, the rest uniformly (of which 8 of the 71 other
// nodes of the 72-node dragonfly are in the next group).
TEST(Patterns, AdvMixSendsItsShareToTheNextGroupAndTheRestUniformly) {
  Config cfg = test::config({"traffic.pattern=\"adv_mix\"", "traffic.adv_fraction=0.35"});
  auto topo = find_topology("dragonfly").make(cfg);
  ASSERT_EQ(topo->num_nodes(), 72);
  std::vector<int> all(72);
  std::iota(all.begin(), all.end(), 0);
  auto mix = find_pattern("adv_mix").make(cfg, *topo, 1, all);
  Rng rng(5);
  int next = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const int src = static_cast<int>(rng.below(72));
    const int d = mix->dest(src, rng);
    ASSERT_NE(d, src);
    next += d / 8 == (src / 8 + 1) % 9;
  }
  EXPECT_NEAR(static_cast<double>(next) / n, 0.35 + 0.65 * 8.0 / 71, 0.01);
}

TEST(Patterns, WcHotSendsEveryGroupToTheSameNodesOfTheNextGroup) {
  WcHotPattern wc(72, 8, 2, 3);  // 9 groups of 8 nodes
  Rng rng(2);
  for (int g = 0; g < 9; ++g) {
    const auto& hot = wc.hot_nodes_of_group((g + 1) % 9);
    ASSERT_EQ(hot.size(), 2u);
    std::set<int> seen;
    for (int s = g * 8; s < g * 8 + 8; ++s)
      for (int i = 0; i < 20; ++i) seen.insert(wc.dest(s, rng));
    EXPECT_EQ(seen, std::set<int>(hot.begin(), hot.end()));
  }
}

TEST(Patterns, UniformStaysInsideTheClassNodes) {
  UniformPattern u(std::vector<int>{3, 7, 9});
  Rng rng(4);
  std::set<int> seen;
  for (int i = 0; i < 300; ++i) seen.insert(u.dest(7, rng));
  EXPECT_EQ(seen, (std::set<int>{3, 9}));
}

TEST(Patterns, HotspotDrawsSourcesAndGivenDestinationsFromTheClass) {
  HotspotPattern hs(64, {0, 8, 16, 24, 32}, 0, 1, {0}, 1);
  EXPECT_EQ(hs.destinations(), std::vector<int>{0});
  for (int n = 0; n < 64; ++n) EXPECT_EQ(hs.is_source(n), n % 8 == 0 && n > 0 && n <= 32) << n;
}

TEST(NodeSets, SelectionsFollowTheirSyntax) {
  auto df = find_topology("dragonfly").make(test::config({}));  // 72 nodes, 2 per router
  EXPECT_EQ(select_nodes("k", "range:3-5", *df, 1), (std::vector<int>{3, 4, 5}));
  EXPECT_EQ(select_nodes("k", "list:9,2,2", *df, 1), (std::vector<int>{2, 9}));
  EXPECT_EQ(select_nodes("k", "all", *df, 1).size(), 72u);
  const auto first = select_nodes("k", "router_index:0", *df, 1);
  ASSERT_EQ(first.size(), 36u);
  for (int n : first) EXPECT_EQ(df->node_port(n), 0);
  const auto r1 = select_nodes("k", "random:40", *df, 1), r2 = select_nodes("k", "random:40", *df, 2);
  EXPECT_EQ(r1.size(), 40u);
  EXPECT_EQ(std::set<int>(r1.begin(), r1.end()).size(), 40u);
  EXPECT_NE(r1, r2);
  EXPECT_EQ(r1, select_nodes("k", "random:40", *df, 1));
  for (const char* bad : {"some", "random:0", "random:73", "range:5-3", "range:0-72", "list:1,x", "list:99"})
    EXPECT_THROW(select_nodes("k", bad, *df, 1), ConfigError) << bad;
}
