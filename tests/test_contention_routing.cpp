// Adaptive routing of paper 002 (PB, OLM, Base, Hybrid, ECtN) on a small
// dragonfly: the papers' steady-state and transient claims.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "config_loader.h"

#include "core/network.h"
#include "routing/contention_counter_bank.h"
#include "routing/contention_counter_mean.h"
#include "topology/dragonfly.h"
#include "registry.h"
#include "test_util.h"

using namespace ccsim;

namespace {

// Thresholds for the p=2 test dragonfly: 002 derives th <= p for misrouting
// at injection (th = 6 for p = 8); here th = 3 (Base, ECtN), 4 (Hybrid).
std::vector<std::string> setup(const std::string& alg, const std::vector<std::string>& sets) {
  std::vector<std::string> v{"routing.algorithm=" + alg, "router.vcs=6", "traffic.packet_size=8"};
  if (alg == "base" || alg == "ectn") v.push_back("routing.contention_threshold=3");
  if (alg == "hybrid") v.push_back("routing.hybrid_contention_threshold=4");
  if (alg == "ectn") v.push_back("routing.ectn_combined_threshold=5");
  v.insert(v.end(), sets.begin(), sets.end());
  return v;
}

// The reaction to a UN -> ADV+1 switch, by decision time (10-cycle windows):
// misrouting decisions per injected packet before the switch (mean of 1000
// cycles) and at the end of the run (last 500 cycles); cycles from the switch
// until they are half way from one level to the other, and until 5 windows in
// a row are within 0.1 of the final level.
struct Transient {
  double before, after;
  Cycle response, settled;
};

Transient decisions_after_switch(const Config& cfg, Cycle switch_at, Cycle run_after) {
  constexpr Cycle kWindow = 10;
  const std::string alg = cfg.get_string("routing.algorithm");
  auto topo = find_topology("dragonfly").make(cfg);
  auto counter = std::make_unique<test::DecisionCounter>(find_routing("dragonfly", alg).make(cfg, *topo), kWindow,
                                                         (switch_at + run_after) / kWindow);
  test::DecisionCounter& c = *counter;
  static int instance = 0;
  Network net(("transient_" + std::to_string(instance++)).c_str(), cfg, std::move(counter));
  net.run();
  auto at = [&](Cycle t) { return c.misrouted_fraction(static_cast<size_t>(t / kWindow)); };
  auto mean = [&](Cycle from, Cycle to) {
    double s = 0;
    for (Cycle t = from; t < to; t += kWindow) s += at(t);
    return s / static_cast<double>((to - from) / kWindow);
  };
  const Cycle end = switch_at + run_after;
  Transient r{mean(switch_at - 1000, switch_at), mean(end - 500, end), -1, -1};
  for (Cycle t = switch_at; t < end && r.response < 0; t += kWindow)
    if (at(t) >= (r.before + r.after) / 2) r.response = t - switch_at;
  for (Cycle t = switch_at; t + 5 * kWindow <= end && r.settled < 0; t += kWindow) {
    bool near = true;
    for (int k = 0; k < 5; ++k) near = near && std::abs(at(t + k * kWindow) - r.after) < 0.1;
    if (near) r.settled = t - switch_at;
  }
  return r;
}

// On the test dragonfly: the switch at cycle 3000, 20% load.
Transient transient(const std::string& alg, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> sets = setup(alg, {"traffic.load=0.2", "sim.warmup=3000", "sim.measure=1500"});
  sets.insert(sets.end(), extra.begin(), extra.end());
  const std::string base = std::string(test::kSmallDragonfly) + "[[traffic.phase]]\nat = 3000\npattern = \"adv\"\n";
  return decisions_after_switch(test::config(sets, base.c_str()), 3000, 1500);
}

}  // namespace

double run_value(const std::string& alg, const std::vector<std::string>& sets, const char* key) {
  return test::run(setup(alg, sets))[key].get<double>();
}

TEST(ContentionRouting, BaseAndEctnMatchMinimalAtLowUniformLoad) {
  const double min_latency = run_value("min", {"traffic.load=0.1"}, "avg_packet_latency");
  for (const char* alg : {"base", "ectn"}) {
    auto j = test::run(setup(alg, {"traffic.load=0.1"}));
    EXPECT_NEAR(j["avg_packet_latency"].get<double>(), min_latency, 0.02 * min_latency) << alg;
    EXPECT_LT(j["misrouted_fraction"].get<double>(), 0.02) << alg;
  }
}

TEST(ContentionRouting, AdaptiveAlgorithmsApproachValiantUnderAdv1) {
  const std::vector<std::string> adv{"traffic.pattern=adv", "traffic.load=0.45", "sim.drain_cap=500"};
  const double min_bound = 1.0 / (4 * 2);  // 1/(a*p): one global link per pair of groups
  const double val = run_value("val", adv, "accepted_throughput");
  EXPECT_LT(run_value("min", adv, "accepted_throughput"), 1.05 * min_bound);
  for (const char* alg : {"pb", "olm", "base", "hybrid", "ectn"}) {
    const double t = run_value(alg, adv, "accepted_throughput");
    EXPECT_GT(t, 2.5 * min_bound) << alg;
    EXPECT_GE(t, 0.8 * val) << alg;
  }
}

// routing.reevaluate (002: decisions at the head of the input queue; FOGSim re-evaluates each cycle): a
// packet blocked on its minimal VC is routed again from the state it arrived with, so Base misroutes the
// ADV+1 traffic that once-per-router routing left waiting.
TEST(ContentionRouting, ReevaluatedHeadsMisrouteWhatWouldHaveWaited) {
  // 002's router (Table I) and OLM's VC ladder on the test dragonfly.
  const std::vector<std::string> adv{"traffic.pattern=adv",
                                     "traffic.load=0.45",
                                     "traffic.offset=1",
                                     "topology.arrangement=palmtree",
                                     "router.vcs=3",
                                     "routing.vc_scheme=opportunistic",
                                     "router.latency=5",
                                     "router.speedup=2",
                                     "router.buffer_depth=32",
                                     "router.local_buffer_depth=32",
                                     "router.global_buffer_depth=256",
                                     "router.output_buffer=32",
                                     "links.local_latency=10",
                                     "links.global_latency=100",
                                     "traffic.packet_size=8",
                                     "sim.warmup=2000",
                                     "sim.measure=4000"};
  auto again = adv;
  again.push_back("routing.reevaluate=true");
  for (const char* alg : {"olm", "base"}) {
    SCOPED_TRACE(alg);
    auto with_alg = [&](std::vector<std::string> v) {
      v.push_back(std::string("routing.algorithm=") + alg);  // 002's thresholds: the defaults
      return test::run(v);
    };
    const double once = with_alg(adv)["accepted_throughput"], each = with_alg(again)["accepted_throughput"];
    EXPECT_GE(each, 0.98 * once);
    // Base's counters see the queue only once it forms: decided once, its packets wait on the minimal hop.
    if (std::string(alg) == "base") {
      EXPECT_GT(each, 1.2 * once);
    }
  }
}

// PB's flags reach the other routers of the group routing.pb_flag_delay cycles late (002: piggybacked on
// the local links): under ADV+1 they misroute on stale flags, and packets wait longer.
TEST(ContentionRouting, PbOnStaleFlagsWaitsLonger) {
  // Flags alone: a UGAL-L bias no queue reaches.
  const std::vector<std::string> adv{"traffic.pattern=adv", "traffic.load=0.4", "routing.pb_saturation_percent=100",
                                     "routing.pb_saturation_packets=0", "routing.pb_threshold=100000"};
  auto late = adv;
  late.push_back("routing.pb_flag_delay=100");
  const double now = run_value("pb", adv, "avg_packet_latency"), stale = run_value("pb", late, "avg_packet_latency");
  EXPECT_GT(stale, 1.03 * now);
  EXPECT_GT(run_value("pb", late, "accepted_throughput"), 0.9 * run_value("pb", adv, "accepted_throughput"));
}

// 002 V-B (Figs. 7, 8): contention counters react within tens of cycles
// whatever the buffers; OLM waits for buffers to fill, ~10x longer with
// 8x larger input buffers.
TEST(ContentionRouting, BaseReactsInTensOfCyclesWhileOlmWaitsForBuffers) {
  const std::vector<std::string> large{"router.local_buffer_depth=256", "router.global_buffer_depth=2048"};
  const Transient base = transient("base"), base_large = transient("base", large);
  const Transient olm = transient("olm"), olm_large = transient("olm", large);
  for (const Transient& t : {base, base_large, olm, olm_large}) EXPECT_GT(t.after, t.before + 0.25);
  EXPECT_GE(base.response, 0);
  EXPECT_LE(base.response, 50);
  EXPECT_LE(base_large.response, 50);
  EXPECT_GE(olm.response, 2 * base.response);
  EXPECT_GE(olm_large.response, 5 * olm.response);
}

TEST(ContentionRouting, EctnSeesOtherRoutersOnlyAfterABroadcast) {
  Config cfg = test::config({"topology.p=1", "topology.a=3", "topology.h=1"});
  Dragonfly df = Dragonfly::from_config(cfg);
  ContentionCounterParams cp;
  cp.ectn = true;
  cp.threshold = 1;
  cp.combined_threshold = 1;
  cp.broadcast_period = 100;
  cp.broadcast_delay = 10;
  ContentionCounterBank t(df, cp);
  const int link = 2;  // group-output 2: router 2's global link
  t.head_at_front(0, 1, link, 5);
  EXPECT_FALSE(t.combined_contended(0, link, 5));  // registered at the end of the cycle
  EXPECT_TRUE(t.combined_contended(0, link, 6));
  EXPECT_TRUE(t.contended(0, 1, 6));
  EXPECT_FALSE(t.combined_contended(1, link, 109));  // broadcast in cycle 100, used from 110
  EXPECT_TRUE(t.combined_contended(1, link, 110));
  t.tail_left(0, 1, link, 150);
  // After idle cycles the lazy clock catches up, with the broadcast of cycle
  // 4900 (used from 4910), not only the one of cycle 5000 (used from 5010).
  EXPECT_FALSE(t.contended(0, 1, 5000));
  EXPECT_FALSE(t.combined_contended(2, link, 5000));
}

TEST(ContentionRouting, SameSeedSameResults) {
  const std::vector<std::string> sets{"traffic.pattern=adv", "traffic.load=0.3", "sim.measure=1500"};
  for (const char* alg : {"ectn", "olm"}) {
    auto a = test::run(setup(alg, sets)), b = test::run(setup(alg, sets));
    a.erase("perf");
    b.erase("perf");
    EXPECT_EQ(a, b) << alg;
  }
}

TEST(ContentionCounterMean, IntegratesTheTotalOverTheWindowOnly) {
  ContentionCounterMean m(10, 20, 2);  // window [10, 20), two counters
  m.change(5, +2);                     // before the window: holds 2 from its start
  m.change(15, +2);                    // 4 from cycle 15
  m.change(25, -4);                    // after the window: no effect
  EXPECT_DOUBLE_EQ(m.mean(), (2.0 * 5 + 4.0 * 5) / (10 * 2));
  ContentionCounterMean quiet(10, 20, 2);
  quiet.change(12, +1);  // holds 1 to the end of the window
  EXPECT_DOUBLE_EQ(quiet.mean(), 8.0 / 20);
}

// routing.counter_stats reports the mean counter without changing the run; the counters together
// count input VCs holding a packet, so the mean stays within the VCs per input port (6 here) and
// grows with the load.
TEST(ContentionRouting, MeanCounterIsReportedWithoutChangingTheRun) {
  for (const char* alg : {"base", "hybrid", "ectn"}) {
    const std::vector<std::string> sets{"traffic.load=0.8", "sim.measure=1500"};
    auto plain = test::run(setup(alg, sets));
    std::vector<std::string> with = sets;
    with.push_back("routing.counter_stats=true");
    auto counted = test::run(setup(alg, with));
    const double high = counted.at("routing").at("contention_counter_mean").get<double>();
    EXPECT_GT(high, 0.5) << alg;
    EXPECT_LE(high, 6.0) << alg;
    for (auto* j : {&plain, &counted}) {
      j->erase("perf");
      j->erase("config");
      j->erase("routing");
    }
    EXPECT_EQ(plain, counted) << alg;
    std::vector<std::string> low{"traffic.load=0.05", "sim.measure=1500", "routing.counter_stats=true"};
    EXPECT_LT(test::run(setup(alg, low)).at("routing").at("contention_counter_mean").get<double>(), high) << alg;
  }
}

// routing.ectn_broadcast_phit_bits charges ECtN's broadcast (002 VI-B): the test dragonfly's array of a*h = 8
// 4-bit counters in 1-bit phits takes every local channel for 32 of each 100 cycles, so at full load no local
// channel carries more than 68% data; free, the busiest carries more.
TEST(ContentionRouting, ChargedEctnBroadcastTakesTheLocalChannels) {
  auto busiest_local = [](const std::string& phit_bits) {
    auto j = test::run(setup("ectn", {"traffic.load=1.0", "sim.measure=2000", "sim.channel_stats=true",
                                      "routing.ectn_broadcast_phit_bits=" + phit_bits}));
    return j.at("channels").at("by_kind").at("local").at("max").get<double>();
  };
  EXPECT_LE(busiest_local("1"), 0.68);
  EXPECT_GT(busiest_local("0"), 0.75);
}

TEST(ContentionRouting, BadParametersNameTheKey) {
  auto error_of = [](const std::vector<std::string>& sets) -> std::string {
    try {
      test::run(sets);
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(error_of(setup("base", {"routing.contention_threshold=0"})).find("routing.contention_threshold"),
            std::string::npos);
  EXPECT_NE(error_of(setup("olm", {"routing.olm_occupancy_percent=101"})).find("routing.olm_occupancy_percent"),
            std::string::npos);
  EXPECT_NE(error_of(setup("ectn", {"routing.ectn_period=10", "routing.ectn_delay=10"})).find("routing.ectn_delay"),
            std::string::npos);
  // The array (32 bits) in 1-bit phits fills a 20-cycle period; in 8-bit ones (4 phits) it is still crossing the
  // 10-cycle local link when the next broadcast of a 13-cycle period starts.
  EXPECT_NE(error_of(setup("ectn", {"routing.ectn_period=20", "routing.ectn_broadcast_phit_bits=1"}))
                .find("routing.ectn_broadcast_phit_bits"),
            std::string::npos);
  EXPECT_NE(error_of(setup("ectn", {"routing.ectn_period=13", "routing.ectn_broadcast_phit_bits=8"}))
                .find("routing.ectn_broadcast_phit_bits"),
            std::string::npos);
  EXPECT_NE(error_of({"routing.algorithm=hybrid"}).find("router.vcs"), std::string::npos);  // needs 6 VCs
}

// The figures of docs/model.md on the 1056-node network (minutes; run with
// --gtest_also_run_disabled_tests --gtest_filter='*Transient1056*').
TEST(ContentionRouting, DISABLED_Transient1056) {
  for (const char* buffers : {"small", "large"}) {
    for (const char* alg : {"pb", "olm", "base", "hybrid", "ectn"}) {
      std::vector<Override> ov{parse_override(std::string("routing.algorithm=") + alg)};
      if (std::string(buffers) == "large")
        ov.insert(ov.end(),
                  {parse_override("router.local_buffer_depth=256"), parse_override("router.global_buffer_depth=2048")});
      const Transient t = decisions_after_switch(
          load_config(std::string(CCSIM_SOURCE_DIR) + "/experiments/contention_002_transient.toml", ov), 5000, 2000);
      std::printf("%s buffers, %s: misrouting %.3f -> %.3f, half way after %lld cycles, settled after %lld\n", buffers,
                  alg, t.before, t.after, static_cast<long long>(t.response), static_cast<long long>(t.settled));
    }
  }
}

// The same at 002's own scale (16,512 nodes, Base and OLM; docs/model.md;
// 1-2 minutes per run).
TEST(ContentionRouting, DISABLED_Transient16512) {
  for (const char* buffers : {"small", "large"}) {
    for (const char* alg : {"base", "olm"}) {
      std::vector<Override> ov{parse_override(std::string("routing.algorithm=") + alg)};
      if (std::string(buffers) == "large")
        ov.insert(ov.end(),
                  {parse_override("router.local_buffer_depth=256"), parse_override("router.global_buffer_depth=2048")});
      const Transient t = decisions_after_switch(
          load_config(std::string(CCSIM_SOURCE_DIR) + "/experiments/contention_002_full_transient.toml", ov), 2000,
          1500);
      std::printf("%s buffers, %s: misrouting %.3f -> %.3f, half way after %lld cycles, settled after %lld\n", buffers,
                  alg, t.before, t.after, static_cast<long long>(t.response), static_cast<long long>(t.settled));
    }
  }
}
