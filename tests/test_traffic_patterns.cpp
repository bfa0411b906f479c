// Traffic patterns send where their definitions say.
#include <gtest/gtest.h>

#include <set>

#include "traffic/patterns.h"

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
