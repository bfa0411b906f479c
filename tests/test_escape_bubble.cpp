// "duato_bubble": Duato's routing with one escape VC on the torus (004's
// split), each escape ring kept from filling up by admission. Its escape
// channels close cycles only within rings; it survives overload with wormhole
// packets longer than a buffer; without the admission the rings fill up.
#include <gtest/gtest.h>

#include "channel_dependency.h"
#include "registry.h"
#include "test_util.h"

namespace ccsim {
namespace {

const std::string kTorus8Text = test::network_of_004(8) + R"(
[routing]
algorithm = "duato_bubble"
[traffic]
packet_size = 16
injection = "periodic"
source_queue = 1
[sim]
warmup = 1000
measure = 8000
drain_cap = 1
deadlock_cycles = 2000
)";
const char* kTorus8 = kTorus8Text.c_str();

TEST(EscapeBubble, EscapeChannelsCloseCyclesOnlyWithinRings) {
  Config cfg = test::config({"topology.k=5", "traffic.packet_size=1"}, kTorus8);
  auto topo = find_topology("torus").make(cfg);
  auto rf = find_routing("torus", "duato_bubble").make(cfg, *topo);
  auto g = test::dependency_graph(*rf, *topo, 3, 20, [](int slot) { return slot == 0; });
  EXPECT_TRUE(test::has_cycle(g));  // one VC per ring: the ring is a cycle
  EXPECT_FALSE(test::has_cycle(test::contract_rings(g, *rf)));
}

TEST(EscapeBubble, SurvivesOverloadWithPacketsLongerThanBuffers) {
  for (const char* pattern : {"uniform", "butterfly", "bitrev", "tornado"}) {
    auto r = test::run({std::string("traffic.pattern=\"") + pattern + "\"", "traffic.load=1.0"}, kTorus8);
    EXPECT_FALSE(r["deadlock"].get<bool>()) << pattern;
    EXPECT_GT(r["accepted_throughput"].get<double>(), 0.1) << pattern;
    EXPECT_LE(r["routing"]["escape_share_max"].get<int>(), 7) << pattern;  // k - 1 buffers of a ring
    EXPECT_GT(r["routing"]["escape_refusals"].get<int64_t>(), 0) << pattern;
  }
}

TEST(EscapeBubble, WithoutAdmissionTheRingsOverfill) {
  auto r = test::run({"traffic.load=1.0", "routing.escape_admission=false"}, kTorus8);
  EXPECT_GT(r["routing"]["escape_share_max"].get<int>(), 8);  // more than the ring holds
}

TEST(EscapeBubble, IsForTheTorusAndPacketsThatFitARing) {
  for (auto [sets, key] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"topology.kind=\"mesh\""}, "routing.algorithm"},
           {{"traffic.packet_size=57"}, "traffic.packet_size"}})  // 8 buffers of 8 flits, k - 1 = 7
    EXPECT_EQ(test::config_error_key(sets, kTorus8), key);
}

}  // namespace
}  // namespace ccsim
