// QCN-Switch (paper 001) and the QCN reaction point: the congestion point's
// feedback, the AIMD port probabilities, and the claims of 001 on a small
// dragonfly (p=2, a=4, h=2) with Table I's parameters scaled by 10 in time.
#include <gtest/gtest.h>

#include "congestion/qcn_congestion_point.h"
#include "core/network.h"
#include "registry.h"
#include "routing/qcn_port_probabilities.h"
#include "test_util.h"

using namespace ccsim;

namespace {

// experiments/qcn_001.toml on the 72-node dragonfly: 20-flit packets, 20-cycle
// routers, links 4/40, 2x speedup, 2000-flit transit queues (Q_eq 400 flits).
const char* kQcnDragonfly = R"(
[topology]
kind = "dragonfly"
p = 2
a = 4
h = 2
[router]
vcs = 3
latency = 20
speedup = 2
buffer_depth = 4000
local_buffer_depth = 2000
global_buffer_depth = 2000
output_buffer = 2000
[links]
local_latency = 4
global_latency = 40
[routing]
algorithm = "qcn_switch"
[traffic]
packet_size = 20
[sim]
warmup = 40000
measure = 20000
drain_cap = 20000
)";

nlohmann::json run(const std::vector<std::string>& sets) { return test::run(sets, kQcnDragonfly); }

}  // namespace

TEST(QcnCongestionPoint, FeedbackQuantizedToSixBitsSaturatingAtTwiceQeq) {
  EXPECT_EQ(QcnCongestionPoint::quantize(400, 0, 400, 0), 0);  // at Q_eq: not congested
  EXPECT_EQ(QcnCongestionPoint::quantize(200, 0, 400, 0), 0);
  EXPECT_EQ(QcnCongestionPoint::quantize(600, 0, 400, 0), 31);  // half way to 2 Q_eq
  EXPECT_EQ(QcnCongestionPoint::quantize(800, 0, 400, 0), 63);
  EXPECT_EQ(QcnCongestionPoint::quantize(5000, 0, 400, 0), 63);  // saturates
  // w = 2: Q_delta counts twice; saturation at Q_eq (2w + 1) of -Fb.
  EXPECT_EQ(QcnCongestionPoint::quantize(400, 300, 400, 2), 63 * 200 / 2000);
}

TEST(QcnCongestionPoint, SamplesOnePacketInCpcAndSendsPercentOfCongestedSamples) {
  QcnCpParams p;
  p.q_eq = 10;
  p.cpc = 100;
  p.cnm_percent = 30;
  QcnCongestionPoint cp(&p);
  Rng rng(7);
  int cnms = 0;
  for (int i = 0; i < 100000; ++i)
    if (cp.on_packet(40, rng, i) > 0) ++cnms;
  EXPECT_EQ(cp.samples(), 1000);
  EXPECT_NEAR(cnms, 300, 60);
  QcnCongestionPoint quiet(&p);
  for (int i = 0; i < 10000; ++i) EXPECT_EQ(quiet.on_packet(10, rng, i), 0);
}

// "packets_and_time" (the default): every packet time also counts, so a buffer that sees a
// packet every 20 cycles with 20-cycle packet times is sampled every 50 packets, not 100.
TEST(QcnCongestionPoint, PacketTimesCountTowardsCpc) {
  QcnCpParams p;
  p.q_eq = 10;
  p.cpc = 100;
  p.packet_cycles = 20;
  QcnCongestionPoint cp(&p);
  Rng rng(7);
  for (int i = 0; i < 100000; ++i) cp.on_packet(40, rng, Cycle{20} * i);
  EXPECT_NEAR(cp.samples(), 2000, 1);
}

TEST(QcnPortProbabilities, BaseCutsByFeedbackAndRecoversAfterPcLimitPackets) {
  QcnSwitchParams sw;
  sw.fb_compare = false;
  PortProbabilityTable t(2, 5, &sw);
  t.on_cnm(3, 63);
  EXPECT_NEAR(t.probability(3), 100.0 / 64, 1e-9);  // R = 1 - 63/64
  t.on_cnm(4, 32);
  EXPECT_NEAR(t.probability(4), 50.0, 1e-9);
  for (int i = 0; i < 99; ++i) t.on_transmit(4);
  EXPECT_NEAR(t.probability(4), 50.0, 1e-9);
  t.on_transmit(4);  // PC_l = 100 packets without a CNM: +PI
  EXPECT_NEAR(t.probability(4), 51.0, 1e-9);
  EXPECT_NEAR(t.probability(2), 100.0, 1e-9);
}

TEST(QcnPortProbabilities, FeedbackComparisonSeparatesUniformFromAdversarial) {
  QcnSwitchParams sw;  // Th_1 = 0, Th_2 = 30
  // 001 Fig. 4: a CNM with Fb = 60. Uniform: every port reports similar values.
  PortProbabilityTable un(2, 5, &sw);
  for (int port = 2; port < 7; ++port) un.on_cnm(port, 45);
  const double before = un.probability(6);
  un.on_cnm(6, 60);  // 60 - avg(48) < Th_2: no change
  EXPECT_NEAR(un.probability(6), before, 1e-9);
  // Adversarial: only this port is congested.
  PortProbabilityTable adv(2, 5, &sw);
  adv.on_cnm(6, 60);  // avg = 12, R = 1 - 48/64
  EXPECT_NEAR(adv.probability(6), 25.0, 1e-9);
  adv.on_cnm(5, 3);  // at or below the average: +PI
  EXPECT_NEAR(adv.probability(5), 100.0, 1e-9);
}

TEST(QcnSwitch, ProbabilityFallsOnTheCongestedGlobalPortUnderAdv) {
  for (const char* sampling : {"output", "input"}) {
    auto r = run({"traffic.pattern=adv", "traffic.load=0.4", std::string("routing.qcn_sampling=") + sampling,
                  std::string("routing.qcn_source_processing=") + (sampling[0] == 'i' ? "true" : "false")});
    const auto& q = r["routing"];
    SCOPED_TRACE(sampling);
    EXPECT_GT(q["cnms"].get<int>(), 50);
    EXPECT_LT(q["p_adv1_global"].get<double>(), 50.0);
    EXPECT_LT(q["p_adv1_local_to_exit"].get<double>(), 60.0);
    EXPECT_GT(q["p_other"].get<double>(), 85.0);
    EXPECT_GT(r["misrouted_fraction"].get<double>(), 0.4);
  }
}

TEST(QcnSwitch, AdvThroughputFarAboveTheMinimalBound) {
  // MIN under ADV+1 is capped at 1/(a p) = 0.125 flits/node/cycle here.
  auto r = run({"traffic.pattern=adv", "traffic.load=0.4"});
  EXPECT_GT(r["accepted_throughput"].get<double>(), 2.5 / 8);
  auto m = run(
      {"traffic.pattern=adv", "traffic.load=0.4", "routing.algorithm=min", "sim.warmup=10000", "sim.measure=10000"});
  EXPECT_LT(m["accepted_throughput"].get<double>(), 1.05 / 8);
}

TEST(QcnSwitch, ProbabilitiesStayHighUnderUniformWithFeedbackComparison) {
  const std::vector<std::string> un = {"traffic.pattern=uniform", "traffic.load=1.0", "sim.warmup=20000",
                                       "sim.measure=10000"};
  auto fb = run(un);
  std::vector<std::string> base = un;
  base.push_back("routing.qcn_fb_compare=false");
  auto plain = run(base);
  EXPECT_GT(fb["routing"]["cnms"].get<int>(), 40);
  const double p_fb = fb["routing"]["p_other"].get<double>(), p_plain = plain["routing"]["p_other"].get<double>();
  EXPECT_GT(p_fb, 80.0);
  EXPECT_GT(p_fb, p_plain + 10.0);
  EXPECT_LT(fb["misrouted_fraction"].get<double>(), plain["misrouted_fraction"].get<double>());
}

// 001 Fig. 10: misrouting at injection reacts within microseconds to a
// traffic change in either direction (decision time, 500-cycle = 5 us
// windows; on this small network UN -> ADV takes ~70 us to half its level); the way back to minimal routing after ADV
// -> UN is fast at first (one rule per switch is congested) and then slow (+PI per PC_l packets).
TEST(QcnSwitch, MisroutingFollowsTrafficChangesBothWays) {
  for (bool to_adv : {true, false}) {
    SCOPED_TRACE(to_adv ? "UN -> ADV" : "ADV -> UN");
    const std::string base = std::string(kQcnDragonfly) + "[[traffic.phase]]\nat = 40000\npattern = \"" +
                             (to_adv ? "adv" : "uniform") + "\"\n";
    const Config cfg = test::config(
        {std::string("traffic.pattern=") + (to_adv ? "uniform" : "adv"), "traffic.load=0.4", "sim.measure=10000"},
        base.c_str());
    auto topo = find_topology("dragonfly").make(cfg);
    auto counter =
        std::make_unique<test::DecisionCounter>(find_routing("dragonfly", "qcn_switch").make(cfg, *topo), 500, 100);
    test::DecisionCounter& c = *counter;
    Network net(to_adv ? "qcn_un_adv" : "qcn_adv_un", cfg, std::move(counter));
    net.run();
    const double before = c.misrouted_fraction(79), first = c.misrouted_fraction(80), later = c.misrouted_fraction(99);
    if (to_adv) {
      EXPECT_LT(before, 0.02);
      EXPECT_GT(c.misrouted_fraction(83), 0.02);  // the first CNMs within 20 us
      EXPECT_GT(later, 0.5);                      // most misrouted after 100 us
    } else {
      EXPECT_GT(before, 0.5);
      EXPECT_LT(first, 0.5 * before);  // within the first 5 us
      EXPECT_GT(first, 0.01);          // but not at once back to minimal
    }
  }
}

// routing.qcn_qeq_of = "port": Q_eq is the share of the port's buffer, all 3 VCs (001's physical buffer), the
// same congestion point as a share three times larger of one VC's; under UN at full load it misroutes less
// than ours.
TEST(QcnSwitch, QeqOfThePortIsThreeTimesOneVcs) {
  const std::vector<std::string> un = {"traffic.pattern=uniform", "traffic.load=1.0", "sim.warmup=20000",
                                       "sim.measure=10000"};
  auto with = [&](std::vector<std::string> more) {
    more.insert(more.end(), un.begin(), un.end());
    auto r = run(more);
    r.erase("perf");
    r.erase("config");
    return r;
  };
  auto port = with({"routing.qcn_qeq_of=\"port\""});
  EXPECT_EQ(port.dump(), with({"routing.qcn_qeq=0.6"}).dump());
  EXPECT_LT(port["misrouted_fraction"].get<double>(), with({})["misrouted_fraction"].get<double>());
}

// CNMs as packets (001's 64-byte frames on a class of their own): each crosses the network and is read by
// the source's access switch; the steering around ADV's congested global link survives the queuing.
TEST(QcnSwitch, CnmPacketsReachTheSourceSwitchAndSteerAroundAdv) {
  const std::vector<std::string> adv = {"traffic.pattern=adv", "traffic.load=0.4", "sim.warmup=20000",
                                        "sim.measure=10000"};
  auto with = [&](const char* transport) {
    auto s = adv;
    s.push_back(std::string("routing.qcn_cnm_transport=") + transport);
    return run(s);
  };
  auto r = with("packets");
  const auto& q = r["routing"];
  const int64_t sent = q["cnm_packets_sent"], read = q["cnm_packets_read"];
  EXPECT_GT(sent, 50);
  EXPECT_LE(read, sent);
  EXPECT_GE(read, sent * 9 / 10);  // the rest in flight at the end
  EXPECT_GT(r["ejection"]["cnm"].get<double>(), 0.0);
  EXPECT_LT(q["p_adv1_global"].get<double>(), 50.0);
  EXPECT_GT(r["accepted_throughput"].get<double>(), 2.5 / 8);
  auto z = with("zero_load");
  EXPECT_FALSE(z["routing"].contains("cnm_packets_sent"));
  EXPECT_EQ(z["ejection"]["cnm"].get<double>(), 0.0);
  EXPECT_NE(r["accepted_flits"], z["accepted_flits"]);
}

// A queued victim (a random packet of the sampled input buffer, 001; the head of the sampled output queue,
// FOGSim) still notifies ADV's congested flows: the global link to the next group loses its probability.
TEST(QcnSwitch, QueuedVictimsSteerAroundAdv) {
  for (const char* sampling : {"output", "input"}) {
    SCOPED_TRACE(sampling);
    const std::vector<std::string> adv = {
        "traffic.pattern=adv", "traffic.load=0.4", "sim.warmup=20000", "sim.measure=10000",
        std::string("routing.qcn_sampling=") + sampling,
        // input sampling reaches S_out's own global port only with source processing
        std::string("routing.qcn_source_processing=") + (sampling[0] == 'i' ? "true" : "false")};
    auto with = [&](const char* victim) {
      auto s = adv;
      s.push_back(std::string("routing.qcn_victim=") + victim);
      return run(s);
    };
    auto q = with("queued"), c = with("crossing");
    EXPECT_GT(q["routing"]["cnms"].get<int>(), 50);
    EXPECT_LT(q["routing"]["p_adv1_global"].get<double>(), 50.0);
    EXPECT_NE(q["routing"]["cnms"], c["routing"]["cnms"]);
  }
}

// routing.qcn_cnm_stats reports what the CNMs did and changes nothing else; under ADV the feedback
// comparison cuts the congested global ports.
TEST(QcnSwitch, CnmOutcomesAreReportedWithoutChangingTheRun) {
  const std::vector<std::string> adv = {"traffic.pattern=adv", "traffic.load=0.4", "sim.warmup=20000",
                                        "sim.measure=10000"};
  auto with = run([&] {
    auto s = adv;
    s.push_back("routing.qcn_cnm_stats=true");
    return s;
  }());
  auto without = run(adv);
  const auto o = with["routing"]["cnm_outcomes"];
  EXPECT_GT(o["global"]["decrease"].get<int64_t>(), 0);
  EXPECT_GT(o["global"]["mean_fb"].get<double>(), o["global"]["mean_fb_avg"].get<double>());
  with["routing"].erase("cnm_outcomes");
  for (auto* j : {&with, &without}) {
    j->erase("perf");
    j->erase("config");
  }
  EXPECT_EQ(with.dump(), without.dump());
}

// routing.qcn_nonminimal_port = "random": a packet skipping its minimal rule takes a global port of
// its switch drawn for it, not the one its injection port names; QCN-Switch still steers around ADV.
TEST(QcnSwitch, RandomNonMinimalPortStillSteersAroundAdv) {
  const std::vector<std::string> adv = {"traffic.pattern=adv", "traffic.load=0.4", "sim.warmup=20000",
                                        "sim.measure=10000"};
  auto fixed = run(adv);
  auto random = run([&] {
    auto s = adv;
    s.push_back("routing.qcn_nonminimal_port=random");
    return s;
  }());
  EXPECT_GT(random["accepted_throughput"].get<double>(), 2.5 / 8);
  EXPECT_GT(random["misrouted_fraction"].get<double>(), 0.4);
  EXPECT_NE(random["node_accepted"], fixed["node_accepted"]);
}

TEST(QcnSwitch, Deterministic) {
  const std::vector<std::string> s = {"traffic.pattern=adv", "traffic.load=0.3", "sim.warmup=5000", "sim.measure=5000"};
  auto a = run(s), b = run(s);
  a.erase("perf");
  b.erase("perf");
  EXPECT_EQ(a.dump(), b.dump());
}

TEST(QcnReactionPoint, CnmsReachTheSourcesAndCutTheirRate) {
  // Hot region at high load: ejection queues of the hot nodes fill.
  auto r = run({"routing.algorithm=min", "congestion.protocol=qcn", "traffic.pattern=hot_region", "traffic.load=0.9",
                "sim.warmup=10000", "sim.measure=10000"});
  const auto& c = r["congestion"];
  EXPECT_GT(c["cnms"].get<int>(), 10);
  EXPECT_EQ(c["cnms"].get<int>(), c["cnms_received"].get<int>());
  EXPECT_GT(c["limited_nics"].get<int>(), 0);
  EXPECT_LT(c["mean_rate"].get<double>(), 1.0);
}
