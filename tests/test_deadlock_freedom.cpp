// Every routing algorithm of the registry, on a small network of its topology:
// the channel dependency graph of its escape slots (every slot but Duato's
// adaptive VCs) has no cycle, once each escape ring kept from filling up by
// admission (bubble flow control) is taken as one vertex. Algorithms that
// declare deadlock recovery are the exception. A new algorithm is checked
// without editing this file.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "channel_dependency.h"
#include "registry.h"
#include "test_util.h"
#include "topology/dragonfly.h"

using namespace ccsim;
using ccsim::test::dependency_graph;
using ccsim::test::has_cycle;

namespace {

// A network of each topology small enough for every node pair many times over.
const std::map<std::string, std::vector<std::string>> kSmallShape = {
    {"dragonfly", {"topology.p=1", "topology.a=3", "topology.h=1"}},
    {"flatfly", {"topology.k=3", "topology.n=3", "topology.c=1"}},
    {"torus", {"topology.k=5", "topology.n=2"}},  // rings of 5: routes of more than two hops
    {"mesh", {"topology.k=3", "topology.n=3"}},
};

struct Case {
  std::string topology, algorithm;
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.topology << "/" << c.algorithm; }

std::vector<Case> every_algorithm() {
  std::vector<Case> v;
  for (auto& r : routings()) v.push_back({r.topology, r.name});
  return v;
}

// Each routing threshold at its lowest declared value (contention counters at
// 1): the counter-driven algorithms then misroute whenever they can, so every
// misrouting branch is taken.
Config config_of(const Case& c, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> sets = kSmallShape.at(c.topology);
  sets.insert(sets.end(), extra.begin(), extra.end());
  sets.push_back("topology.kind=" + c.topology);
  sets.push_back("routing.algorithm=" + c.algorithm);
  for (auto& p : find_routing(c.topology, c.algorithm).params)
    if (p.key.find("threshold") != std::string::npos && p.min && p.type == ParamType::Int)
      sets.push_back(p.key + "=" + std::to_string(static_cast<int64_t>(*p.min)));
  return test::config(sets, "[sim]\n");
}

}  // namespace

class DeadlockFreedom : public ::testing::TestWithParam<Case> {};

TEST_P(DeadlockFreedom, EscapeChannelDependencyGraphIsAcyclic) {
  const Case c = GetParam();
  Config cfg = config_of(c);
  auto topo = find_topology(c.topology).make(cfg);
  auto rf = find_routing(c.topology, c.algorithm).make(cfg, *topo);
  if (rf->needs_recovery()) GTEST_SKIP() << "declares deadlock recovery";
  const int escape = rf->escape_slots();
  for (int vcs : {rf->vc_slots(), rf->vc_slots() + 1}) {
    auto g = dependency_graph(*rf, *topo, vcs, 20, [&](int slot) { return slot < escape; });
    EXPECT_GT(g.size(), 0u);
    EXPECT_FALSE(has_cycle(test::contract_rings(g, *rf)))
        << c.topology << "/" << c.algorithm << " with " << vcs << " VCs";
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, DeadlockFreedom, ::testing::ValuesIn(every_algorithm()),
                         [](const ::testing::TestParamInfo<Case>& i) {
                           return i.param.topology + "_" + i.param.algorithm;
                         });

TEST(DeadlockFreedomCheck, EveryTopologyHasASmallShape) {
  for (auto& t : topologies()) EXPECT_TRUE(kSmallShape.count(t.name)) << t.name << ": add it to kSmallShape";
}

// The in-transit algorithms' last slot is only reached by packets that
// misrouted globally and then locally in the destination group: the graph
// above covered it.
TEST(DeadlockFreedomCheck, InTransitAlgorithmsReachTheirLastSlot) {
  for (const char* alg : {"olm", "base", "hybrid", "ectn"}) {
    Config cfg = config_of({"dragonfly", alg});
    auto topo = find_topology("dragonfly").make(cfg);
    auto rf = find_routing("dragonfly", alg).make(cfg, *topo);
    auto g = dependency_graph(*rf, *topo, 6, 20);
    EXPECT_TRUE(std::any_of(g.begin(), g.end(), [](auto& e) { return std::get<2>(e.first) == 5; })) << alg;
  }
}

// OLM's ladder (routing.vc_scheme = "opportunistic", 3 VCs): misroutes reuse
// rungs, so the channel dependencies close cycles, but no packet waits for a
// misroute and every wait climbs the ladder: the graph of waits is acyclic.
TEST(DeadlockFreedomCheck, OlmLadderWaitsNeverCloseACycle) {
  for (const char* alg : {"olm", "base", "hybrid", "ectn"}) {
    Config cfg = config_of({"dragonfly", alg}, {"routing.vc_scheme=\"opportunistic\"", "router.vcs=3"});
    auto topo = find_topology("dragonfly").make(cfg);
    auto rf = find_routing("dragonfly", alg).make(cfg, *topo);
    EXPECT_EQ(rf->vc_slots(), 3) << alg;
    auto all = dependency_graph(*rf, *topo, 3, 20);
    EXPECT_TRUE(has_cycle(all)) << alg << ": the ladder's rung reuse should show in the full graph";
    EXPECT_TRUE(std::any_of(all.begin(), all.end(), [](auto& e) { return std::get<2>(e.first) == 2; })) << alg;
    EXPECT_FALSE(has_cycle(dependency_graph(*rf, *topo, 3, 20, nullptr, true))) << alg;
  }
}

// Valiant paths through an intermediate router (routing.valiant_intermediate = "router"): two
// local hops in the intermediate group on 4 local slots, acyclic, the fourth slot reached.
TEST(DeadlockFreedomCheck, ValiantThroughARouterIsAcyclicOnFourLocalSlots) {
  for (const char* alg : {"val", "pb"}) {
    Config cfg = config_of({"dragonfly", alg}, {"routing.valiant_intermediate=\"router\""});
    auto topo = find_topology("dragonfly").make(cfg);
    auto rf = find_routing("dragonfly", alg).make(cfg, *topo);
    EXPECT_EQ(rf->vc_slots(), 4) << alg;
    auto g = dependency_graph(*rf, *topo, 4, 20);
    EXPECT_FALSE(has_cycle(g)) << alg;
    EXPECT_TRUE(std::any_of(g.begin(), g.end(), [](auto& e) { return std::get<2>(e.first) == 3; })) << alg;
  }
}

// routing.min_vc_per_hop: MIN's slot s is VC s alone (FOGSim's minimal routing, behind 001 and 002),
// the router's other VCs left to injection; by default a slot takes every 2nd VC from its own.
TEST(DeadlockFreedomCheck, MinimalOneVcPerHopTakesOnlyItsSlotsVc) {
  for (bool per_hop : {false, true}) {
    Config cfg =
        config_of({"dragonfly", "min"}, {std::string("routing.min_vc_per_hop=") + (per_hop ? "true" : "false")});
    auto topo = find_topology("dragonfly").make(cfg);
    auto rf = find_routing("dragonfly", "min").make(cfg, *topo);
    EXPECT_EQ(rf->slot_vcs(0, 3), per_hop ? 0b001u : 0b101u);
    EXPECT_EQ(rf->slot_vcs(1, 3), 0b010u);
  }
}

TEST(DeadlockFreedomCheck, DetectsACycleInABrokenAssignment) {
  Config cfg = config_of({"dragonfly", "val"});
  auto topo = find_topology("dragonfly").make(cfg);
  test::SingleVcRouting broken(find_routing("dragonfly", "val").make(cfg, *topo));
  EXPECT_TRUE(has_cycle(dependency_graph(broken, *topo, 1, 20)));
}
