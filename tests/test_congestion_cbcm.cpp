// CBCM (000 section IV): the destination's hotspot detector, and on 000's
// 16-node flattened butterfly the per-case behaviour of spec A.5.9 -- a
// permutation is never throttled, a many-to-one hotspot's senders each get
// 1/N of the hotspot, network congestion alone is left to adaptive routing --
// and early detection at intermediate routers (000 VI-A).
#include <gtest/gtest.h>

#include <string>

#include "blocks/token_throttler.h"
#include "congestion/cbcm.h"
#include "congestion/hotspot_detector.h"
#include "core/network.h"
#include "test_util.h"

using namespace ccsim;

namespace {

const std::string kFb16Network = test::kCbcmFb16Network;
const std::string kFb16String = kFb16Network + "[sim]\nwarmup = 3000\nmeasure = 10000\n";
const char* kFb16 = kFb16String.c_str();

// 000 Fig. 2: nodes 0, 5, 8 and 12 send to node 4 at full rate, the other
// nodes uniform random traffic among themselves.
const std::string kFb16HotspotString = kFb16Network + R"(
[traffic]
load = 0.2
[sim]
warmup = 20000
measure = 20000
)" + std::string(test::kFb16HotspotClasses);
const char* kFb16Hotspot = kFb16HotspotString.c_str();

const std::vector<int> kSenders = {0, 5, 8, 12};

// A hotspot on node 4 (router R1) with the senders `list` (which must include
// 4) and UR among the other nodes at 20%: 000 Fig. 1c is 0,1,2,3,4 (all on R0).
std::string fb16_hotspot(const std::string& list) {
  std::string s = kFb16HotspotString;
  const std::string from = "list:0,4,5,8,12";
  s.replace(s.find(from), from.size(), "list:" + list);
  return s;
}

DetectorParams detector_params(bool exit_on_unmarked = false) {
  DetectorParams p;
  p.epoch = 100;
  p.min_dt = 2;
  p.epsilon = 0.5;
  p.exit_on_unmarked = exit_on_unmarked;
  return p;
}

}  // namespace

TEST(HotspotDetector, AnEpochOfMarkedPacketsFromTwoSourcesMakesAHotspot) {
  HotspotDetector d(16, detector_params());
  std::vector<int> to;
  d.on_data(3, true, 10);
  d.on_data(7, true, 50);
  EXPECT_EQ(d.mode(), HotspotDetector::Mode::Observe);
  EXPECT_EQ(d.poll(109, to), 0);  // the epoch runs until cycle 110
  EXPECT_EQ(d.next_event(), 110);
  EXPECT_EQ(d.poll(110, to), 2);
  EXPECT_EQ(to, (std::vector<int>{3, 7}));
  EXPECT_EQ(d.detections(), 1);
  // Once a hotspot, unmarked packets list their sources too.
  d.on_data(9, false, 111);
  EXPECT_EQ(d.listed(), 3);
}

TEST(HotspotDetector, AnUnmarkedPacketEmptiesTheList) {
  HotspotDetector d(16, detector_params());
  std::vector<int> to;
  d.on_data(3, true, 10);
  d.on_data(7, true, 20);
  d.on_data(5, false, 30);  // a path without contention exists
  EXPECT_EQ(d.mode(), HotspotDetector::Mode::Idle);
  EXPECT_EQ(d.poll(500, to), 0);
  EXPECT_EQ(d.detections(), 0);
}

TEST(HotspotDetector, OneSourceIsNeverAHotspot) {
  HotspotDetector d(16, detector_params());
  std::vector<int> to;
  for (Cycle t = 0; t < 1000; t += 5) d.on_data(3, true, t);
  EXPECT_EQ(d.poll(1000, to), 0);
  EXPECT_EQ(d.detections(), 0);
}

TEST(HotspotDetector, UpdatesWaitForTheQuietPeriodAndFollowUnthrottles) {
  HotspotDetector d(16, detector_params());  // epsilon 0.5: D_t / 0.5 quiet cycles
  std::vector<int> to;
  d.on_data(1, true, 0);
  d.on_data(2, true, 0);
  ASSERT_EQ(d.poll(100, to), 2);
  d.on_data(3, false, 101);       // D_t changes to 3 ...
  EXPECT_EQ(d.poll(103, to), 0);  // ... but 2 / 0.5 = 4 quiet cycles
  EXPECT_EQ(d.next_event(), 104);
  EXPECT_EQ(d.poll(104, to), 3);
  EXPECT_EQ(to, (std::vector<int>{1, 2, 3}));
  d.on_unthrottle(2, 200);
  EXPECT_EQ(d.poll(200, to), 2);  // the others get the updated D_t
  EXPECT_EQ(to, (std::vector<int>{1, 3}));
  d.on_unthrottle(1, 300);
  d.on_unthrottle(3, 300);
  EXPECT_EQ(d.mode(), HotspotDetector::Mode::Idle);  // the list emptied
}

TEST(HotspotDetector, AHotspotEpochWithAnUnmarkedPacketEndsTheHotspot) {
  for (bool exit : {true, false}) {
    SCOPED_TRACE(exit);
    HotspotDetector d(16, detector_params(exit));
    std::vector<int> to;
    d.on_data(1, true, 0);
    d.on_data(2, true, 0);
    ASSERT_EQ(d.poll(100, to), 2);  // a hotspot from 100; its epoch ends at 200
    d.on_data(3, true, 150);
    d.on_data(4, true, 250);  // an all-marked epoch keeps it
    EXPECT_EQ(d.mode(), HotspotDetector::Mode::Hotspot);
    d.on_data(5, false, 260);
    d.on_data(6, false, 350);  // the epoch 250-350 had an unmarked packet
    EXPECT_EQ(d.mode(), exit ? HotspotDetector::Mode::Idle : HotspotDetector::Mode::Hotspot);
    EXPECT_EQ(d.exits(), exit ? 1 : 0);
  }
}

TEST(Cbcm, PermutationTrafficIsMarkedButNeverThrottled) {
  // MIN saturates the one channel each router's 4 nodes share: packets are
  // marked, but each destination hears from one source only (D_t = 1).
  for (const char* alg : {"min", "ugal_l"}) {
    SCOPED_TRACE(alg);
    auto r =
        test::run({std::string("routing.algorithm=") + alg, "traffic.pattern=worst_case", "traffic.load=0.7"}, kFb16);
    EXPECT_GT(r["congestion"]["marked_fraction"].get<double>(), 0.4);
    EXPECT_EQ(r["congestion"]["throttle_packets"], 0);
    EXPECT_EQ(r["congestion"]["hotspots_detected"], 0);
    EXPECT_EQ(r["congestion"]["max_throttling_degree"], 0);
  }
}

TEST(Cbcm, NetworkCongestionAloneIsLeftToAdaptiveRouting) {
  // 000's worst case without the permutation: the nodes of R_i send to any
  // node of R_i+1, so each destination hears from 4 sources over a saturated
  // channel. UGAL's unmarked non-minimal packets show it is not endpoint
  // congestion: nothing is throttled and UGAL keeps twice MIN's throughput.
  auto r = test::run({"traffic.pattern=worst_case", "traffic.permutation=false", "traffic.load=0.7"}, kFb16);
  EXPECT_GT(r["congestion"]["marked_fraction"].get<double>(), 0.2);
  EXPECT_EQ(r["congestion"]["throttle_packets"], 0);
  EXPECT_EQ(r["congestion"]["wrongly_throttled_fraction"], 0.0);
  EXPECT_GT(r["accepted_throughput"].get<double>(), 0.45);  // MIN: at most 0.25
}

TEST(Cbcm, HotspotSendersAreThrottledToEqualShares) {
  for (const char* alg : {"min", "ugal_l"}) {
    SCOPED_TRACE(alg);
    auto r = test::run({std::string("routing.algorithm=") + alg}, kFb16Hotspot);
    const auto& c = r["congestion"];
    EXPECT_EQ(c["max_throttling_degree"], 4);
    EXPECT_GE(c["throttle_packets"].get<int>(), 4);
    EXPECT_EQ(c["wrongly_throttled_fraction"], 0.0);
    for (int n : kSenders) EXPECT_NEAR(r["classes"]["hotspot"]["node_accepted"][n].get<double>(), 0.25, 0.025) << n;
    // The hotspot's traffic is isolated: the background runs near zero load.
    EXPECT_NEAR(r["classes"]["ur"]["accepted_throughput"].get<double>(), 0.2, 0.01);
    EXPECT_LT(r["classes"]["ur"]["avg_packet_latency"].get<double>(), 40.0);
  }
}

TEST(Cbcm, WithoutCongestionControlTheHotspotSharesAreUnfair) {
  // The reference for the test above: the router's arbitration alone
  // starves the senders on remote routers.
  auto r = test::run({"congestion.protocol=none"}, kFb16Hotspot);
  EXPECT_LT(r["classes"]["hotspot"]["node_accepted_min"].get<double>(), 0.1);
  EXPECT_GT(r["classes"]["ur"]["avg_packet_latency"].get<double>(), 100.0);
}

TEST(Cbcm, ThrottledSourcesUnthrottleWhenTheHotspotStops) {
  // The hotspot senders stop generating at cycle 12000: their generation
  // rate falls below 1/D_t and each unthrottles itself after a source epoch.
  // Their queued backlog then goes at full rate, which re-lists and
  // re-throttles them (the churn of spec A.5.5) until it has drained.
  const std::string stopping = std::string(kFb16Hotspot) + "stop = 12000\n";  // in the last class: the hotspot
  const Config cfg =
      test::config({"congestion.cbcm_src_epoch=2000", "sim.warmup=3000", "sim.measure=20000"}, stopping.c_str());
  Network net("cbcm_unthrottle", cfg);
  auto r = net.run();
  auto& cbcm = dynamic_cast<Cbcm&>(net.congestion());
  EXPECT_GE(r["congestion"]["unthrottle_packets"].get<int>(), 4);
  for (int n : kSenders) EXPECT_EQ(cbcm.throttling_degree(n, 4, net.now()), 0) << n;
}

TEST(Cbcm, SharedVcVariantThrottlesToJustBelowOneOverN) {
  auto r = test::run({"congestion.cbcm_variant=shared"}, kFb16Hotspot);
  EXPECT_EQ(r["congestion"]["max_throttling_degree"], 4);
  for (int n : kSenders) EXPECT_NEAR(r["classes"]["hotspot"]["node_accepted"][n].get<double>(), 0.99 / 4, 0.025) << n;
}

TEST(Cbcm, IdealVariantIsolatesTheHotspotClassWithoutControlPackets) {
  auto r = test::run({"congestion.cbcm_variant=ideal"}, kFb16Hotspot);
  EXPECT_EQ(r["congestion"]["throttle_packets"], 0);
  EXPECT_EQ(r["ejection"]["throttle"], 0.0);
  EXPECT_LT(r["classes"]["ur"]["avg_packet_latency"].get<double>(), 40.0);
  EXPECT_NEAR(r["classes"]["hotspot"]["accepted_throughput"].get<double>(), 0.25, 0.01);  // 1 flit/cycle over 4
}

TEST(Cbcm, WeightedDegreeAlsoFindsTheHotspot) {
  auto r = test::run({"congestion.cbcm_degree=weighted"}, kFb16Hotspot);
  EXPECT_EQ(r["congestion"]["max_throttling_degree"], 4);
  EXPECT_LT(r["classes"]["ur"]["avg_packet_latency"].get<double>(), 40.0);
}

TEST(Cbcm, SameSeedGivesIdenticalResults) {
  for (const char* detection : {"congestion.cbcm_detection=destination", "congestion.cbcm_detection=early"}) {
    SCOPED_TRACE(detection);
    auto a = test::run({"sim.warmup=2000", "sim.measure=4000", detection}, kFb16Hotspot);
    auto b = test::run({"sim.warmup=2000", "sim.measure=4000", detection}, kFb16Hotspot);
    a.erase("perf");
    b.erase("perf");
    EXPECT_EQ(a.dump(), b.dump());
  }
}

TEST(Cbcm, EarlyDetectionThrottlesAtTheSendersRouterBeforeTheDestination) {
  // 000 VI-A / Fig. 1c: nodes 0..3 share router R0. With early detection R0
  // sees the four inputs contending for node 4 and throttles them itself,
  // before node 4's own detector does; the shares end equal either way.
  const std::string cfg = fb16_hotspot("0,1,2,3,4");
  auto dest = test::run({}, cfg.c_str());
  auto early = test::run({"congestion.cbcm_detection=early"}, cfg.c_str());
  EXPECT_EQ(dest["congestion"]["router_throttle_packets"], 0);
  const auto& c = early["congestion"];
  EXPECT_GE(c["router_hotspots_detected"].get<int>(), 1);
  EXPECT_GE(c["router_throttle_packets"].get<int>(), 4);
  EXPECT_EQ(c["max_throttling_degree"], 4);
  EXPECT_EQ(c["wrongly_throttled_fraction"], 0.0);
  const int64_t router_first = c["first_router_throttle_cycle"].get<int64_t>();
  EXPECT_GE(router_first, 0);
  EXPECT_LT(router_first, dest["congestion"]["first_throttle_cycle"].get<int64_t>());
  for (int n = 0; n < 4; ++n)
    EXPECT_NEAR(early["classes"]["hotspot"]["node_accepted"][n].get<double>(), 0.25, 0.025)
        << n;  // A shorter epoch for the routers alone throttles sooner still.
  auto faster = test::run({"congestion.cbcm_detection=early", "congestion.cbcm_router_epoch=500"}, cfg.c_str());
  EXPECT_LT(faster["congestion"]["first_router_throttle_cycle"].get<int64_t>(), router_first - 1000);
}

TEST(Cbcm, TheDestinationsDegreeOverridesARoutersLowerOne) {
  // Senders 0 and 1 on R0, 8 and 12 elsewhere, MIN: R0 sees two sources and
  // throttles 0 and 1 with D_t = 2 first; node 4 counts four, and its D_t = 4
  // must win, or nodes 0 and 1 would take half of the hotspot.
  const std::string cfg = fb16_hotspot("0,1,4,8,12");
  auto r = test::run({"congestion.cbcm_detection=early", "routing.algorithm=min"}, cfg.c_str());
  EXPECT_EQ(r["congestion"]["router_throttle_packets"], 2);
  EXPECT_LT(r["congestion"]["first_router_throttle_cycle"].get<int64_t>(),
            r["congestion"]["first_throttle_cycle"].get<int64_t>());
  EXPECT_EQ(r["congestion"]["max_throttling_degree"], 4);
  for (int n : {0, 1, 8, 12}) EXPECT_NEAR(r["classes"]["hotspot"]["node_accepted"][n].get<double>(), 0.25, 0.025) << n;
}

TEST(Cbcm, EarlyDetectionLeavesNetworkCongestionAlone) {
  // The per-destination metric tells the routers' contention apart: neither
  // the permutation nor 000's non-permutation worst case (R_i to any node of
  // R_i+1, a saturated channel) is taken for endpoint congestion.
  for (const char* perm : {"traffic.permutation=true", "traffic.permutation=false"}) {
    SCOPED_TRACE(perm);
    auto r =
        test::run({"congestion.cbcm_detection=early", "traffic.pattern=worst_case", perm, "traffic.load=0.7"}, kFb16);
    EXPECT_GT(r["congestion"]["marked_fraction"].get<double>(), 0.2);
    EXPECT_EQ(r["congestion"]["throttle_packets"], 0);
    EXPECT_EQ(r["congestion"]["router_hotspots_detected"], 0);
    EXPECT_GT(r["accepted_throughput"].get<double>(), 0.45);
  }
}

TEST(Cbcm, BadParametersNameTheirKey) {
  auto key_of = [](const std::vector<std::string>& sets, const char* base) {
    try {
      test::run(sets, base);
    } catch (const ConfigError& e) {
      return e.key();
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(key_of({"congestion.cbcm_epsilon=0"}, kFb16), "congestion.cbcm_epsilon");
  EXPECT_EQ(key_of({"congestion.cbcm_epsilon=2"}, kFb16), "congestion.cbcm_epsilon");
  EXPECT_EQ(key_of({"congestion.cbcm_variant=oracle"}, kFb16), "congestion.cbcm_variant");
  EXPECT_EQ(key_of({"congestion.cbcm_dest_epoch=0"}, kFb16), "congestion.cbcm_dest_epoch");
  EXPECT_EQ(key_of({"congestion.cbcm_detection=router"}, kFb16), "congestion.cbcm_detection");
  EXPECT_EQ(key_of({"congestion.cbcm_variant=ideal", "congestion.cbcm_detection=early"}, kFb16Hotspot),
            "congestion.cbcm_detection");
  EXPECT_EQ(key_of({"congestion.cbcm_variant=ideal", "congestion.cbcm_ideal_class=hot"}, kFb16Hotspot),
            "congestion.cbcm_ideal_class");
  EXPECT_EQ(key_of({"congestion.protocol=cbcm", "routing.algorithm=ugal_l"}, test::kSmallDragonfly),
            "routing.algorithm");
}

TEST(CbcmTokenThrottler, ANewDegreeResetsTokensButKeepsTheSourceEpoch) {
  // Throttled in cycle 0 with D_t = 4, updated to D_t = 5 in cycle 50, no
  // packets generated: the source epoch of 100 cycles still ends at cycle
  // 101 (restarting it on the update would end it at 151).
  for (bool keep : {true, false}) {
    SCOPED_TRACE(keep);
    blocks::TokenThrottler::Config c;
    c.src_epoch = 100;
    c.keep_epoch_on_update = keep;
    blocks::TokenThrottler t(c);
    int unthrottled_at = -1;
    for (int cycle = 0; cycle < 200 && unthrottled_at < 0; ++cycle) {
      if (cycle == 0) t.throttle(7, 4);
      if (cycle == 50) t.throttle(7, 5);
      if (cycle == 51) {
        EXPECT_EQ(t.throttling_degree(7), 5u);
        EXPECT_EQ(t.tokens_scaled(7), 1u);  // reset on the update
      }
      if (t.tick() > 0) unthrottled_at = cycle;
    }
    EXPECT_EQ(unthrottled_at, keep ? 101 : 151);
  }
}
