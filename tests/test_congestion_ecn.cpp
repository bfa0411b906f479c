// Acknowledgements and InfiniBand-style ECN (003 section 2.2, Table 1).
#include <gtest/gtest.h>

#include "congestion/ecn.h"
#include "core/network.h"
#include "test_util.h"

using namespace ccsim;

namespace {

const std::vector<std::string> kHotspot = {"traffic.pattern=hotspot", "traffic.hotspot_sources=16",
                                           "traffic.hotspot_dests=2", "traffic.load=0.3",
                                           "traffic.packet_size=4",   "sim.warmup=2000",
                                           "sim.measure=6000"};

std::vector<std::string> with(std::vector<std::string> v, const std::vector<std::string>& more) {
  v.insert(v.end(), more.begin(), more.end());
  return v;
}

}  // namespace

TEST(Acks, EveryDataPacketIsAcknowledgedOnTheAckClass) {
  auto r = test::run({"congestion.acks=true", "traffic.load=0.2", "traffic.packet_size=2"});
  const double data = r["ejection"]["data"].get<double>(), ack = r["ejection"]["ack"].get<double>();
  EXPECT_NEAR(data, 0.2, 0.01);
  EXPECT_NEAR(ack, data / 2, 0.01 * data);  // one 1-flit ACK per 2-flit packet
  EXPECT_EQ(r["ejection"]["nack"], 0.0);
  EXPECT_FALSE(r["saturated"].get<bool>());
}

TEST(Acks, WithoutAcksNoControlTrafficFlows) {
  auto r = test::run({"traffic.load=0.2"});
  for (const char* kind : {"ack", "nack", "reservation", "grant"}) EXPECT_EQ(r["ejection"][kind], 0.0) << kind;
  EXPECT_NEAR(r["ejection"]["data"].get<double>(), 0.2, 0.01);
}

TEST(Ecn, UniformTrafficBelowSaturationIsNotMarked) {
  auto r = test::run({"congestion.protocol=ecn", "traffic.load=0.2"});
  EXPECT_EQ(r["congestion"]["marked_packets"], 0);
  EXPECT_NEAR(r["accepted_throughput"].get<double>(), 0.2, 0.01);
}

TEST(Ecn, ThrottlingSourcesKeepsTheHotspotTreeFromSaturating) {
  auto none = test::run(with(kHotspot, {"congestion.acks=true"}));
  auto ecn = test::run(with(kHotspot, {"congestion.protocol=ecn", "congestion.ecn_threshold=0.1"}));
  EXPECT_GT(ecn["congestion"]["becns"].get<int64_t>(), 0);
  // Without control the queues towards the hot spots grow for the whole run;
  // with ECN the sources hold the excess and the network stays near zero load.
  EXPECT_GT(none["avg_network_latency"].get<double>(), 1000.0);
  EXPECT_LT(ecn["avg_network_latency"].get<double>(), 300.0);
}

TEST(Ecn, BecnRaisesTheInterPacketDelayAndTheTimerLowersIt) {
  const Config cfg = test::config({"congestion.protocol=ecn", "traffic.load=0"});
  Network net("ecn_unit", cfg);
  auto& ecn = dynamic_cast<Ecn&>(net.congestion());
  Packet data;
  data.src = 0;
  data.dst = 5;
  Packet* becn = net.new_control(kAckPacket, 5, 0, 1, data, 0);
  becn->cc_flags = Ecn::kMarked;
  ecn.on_control(net.nic(0), *becn, 100);
  ecn.on_control(net.nic(0), *becn, 100);
  EXPECT_EQ(ecn.ipd(0, 5, 100), 48);  // +24 per BECN (003 Table 1)
  EXPECT_EQ(ecn.ipd(0, 5, 195), 48);
  EXPECT_EQ(ecn.ipd(0, 5, 196), 24);  // -24 every 96 cycles
  EXPECT_EQ(ecn.ipd(0, 5, 292), 0);
  EXPECT_EQ(ecn.ipd(0, 6, 292), 0);  // per destination
  for (int i = 0; i < 200; ++i) ecn.on_control(net.nic(0), *becn, 300);
  EXPECT_EQ(ecn.ipd(0, 5, 300), 3048);  // capped
}
