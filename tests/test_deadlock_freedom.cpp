// For every dragonfly routing algorithm, the channel dependency graph of a
// small dragonfly has no cycle.
#include <gtest/gtest.h>

#include <algorithm>

#include "channel_dependency.h"
#include "registry.h"
#include "test_util.h"
#include "topology/dragonfly.h"

using namespace ccsim;
using ccsim::test::dependency_graph;
using ccsim::test::has_cycle;

class DeadlockFreedom : public ::testing::TestWithParam<std::string> {};

namespace {

// Contention thresholds of 1 make the counter-driven algorithms misroute
// whenever an uncontended port is free, so every misrouting branch is taken.
std::vector<std::string> overrides(const std::string& alg) {
  std::vector<std::string> v{"routing.algorithm=" + alg, "topology.p=1", "topology.a=3", "topology.h=1"};
  if (alg == "base" || alg == "ectn") v.push_back("routing.contention_threshold=1");
  if (alg == "hybrid") v.push_back("routing.hybrid_contention_threshold=1");
  if (alg == "ectn") v.push_back("routing.ectn_combined_threshold=1");
  return v;
}

}  // namespace

TEST_P(DeadlockFreedom, ChannelDependencyGraphIsAcyclic) {
  Config cfg = test::config(overrides(GetParam()));
  auto topo = find_topology("dragonfly").make(cfg);
  auto& df = dynamic_cast<Dragonfly&>(*topo);
  auto rf = find_routing("dragonfly", GetParam()).make(cfg, df);
  for (int vcs : {rf->vc_slots(), rf->vc_slots() + 1}) {
    auto g = dependency_graph(*rf, df, vcs, 20);
    EXPECT_GT(g.size(), 0u);
    EXPECT_FALSE(has_cycle(g)) << GetParam() << " with " << vcs << " VCs";
    // The in-transit algorithms' last slot is only reached by packets that
    // misrouted globally and then locally in the destination group.
    const std::string& a = GetParam();
    const bool in_transit = a == "olm" || a == "base" || a == "hybrid" || a == "ectn";
    if (in_transit && vcs == 6) {
      EXPECT_TRUE(std::any_of(g.begin(), g.end(), [](auto& e) { return std::get<2>(e.first) == 5; })) << GetParam();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Dragonfly, DeadlockFreedom,
                         ::testing::Values("min", "val", "ugal_l", "ugal_g", "par", "par62", "pb", "olm", "base",
                                           "hybrid", "ectn"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

TEST(DeadlockFreedomCheck, DetectsACycleInABrokenAssignment) {
  Config cfg = test::config({"routing.algorithm=val", "topology.p=1", "topology.a=3", "topology.h=1"});
  auto topo = find_topology("dragonfly").make(cfg);
  auto& df = dynamic_cast<Dragonfly&>(*topo);
  test::SingleVcRouting broken(find_routing("dragonfly", "val").make(cfg, df));
  EXPECT_TRUE(has_cycle(dependency_graph(broken, df, 1, 20)));
}
