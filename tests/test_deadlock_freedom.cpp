// For every dragonfly routing algorithm, the channel dependency graph of a
// small dragonfly has no cycle.
#include <gtest/gtest.h>

#include "channel_dependency.h"
#include "registry.h"
#include "test_util.h"
#include "topology/dragonfly.h"

using namespace ccsim;
using ccsim::test::dependency_graph;
using ccsim::test::has_cycle;

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

INSTANTIATE_TEST_SUITE_P(Dragonfly, DeadlockFreedom, ::testing::Values("min", "val", "ugal_l", "ugal_g", "par", "par62"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

TEST(DeadlockFreedomCheck, DetectsACycleInABrokenAssignment) {
  Config cfg = test::config({"routing.algorithm=val", "topology.p=1", "topology.a=3", "topology.h=1"});
  auto topo = find_topology("dragonfly").make(cfg);
  auto& df = dynamic_cast<Dragonfly&>(*topo);
  test::SingleVcRouting broken(find_routing("dragonfly", "val").make(cfg, df));
  EXPECT_TRUE(has_cycle(dependency_graph(broken, df, 1, 20)));
}
