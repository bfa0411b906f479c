// SRP and SMSRP (003 sections 2.2 and 3.1): reservations and grants,
// speculative packets dropped after a queuing timeout anywhere in the fabric,
// NACKs, guaranteed retransmission at the granted time; every packet still
// delivered exactly once.
#include <gtest/gtest.h>

#include "test_util.h"

using namespace ccsim;

namespace {

std::vector<std::string> with(std::vector<std::string> v, const std::vector<std::string>& more) {
  v.insert(v.end(), more.begin(), more.end());
  return v;
}

// 12 senders to 4 nodes, 4-flit packets: load 1/3 fills the hot nodes' ejection.
std::vector<std::string> hotspot(const std::string& protocol, double load) {
  return {"congestion.protocol=" + protocol,
          "congestion.acks=true",
          "traffic.pattern=hotspot",
          "traffic.hotspot_sources=12",
          "traffic.hotspot_dests=4",
          "traffic.load=" + std::to_string(load),
          "traffic.packet_size=4",
          "router.vcs=3",
          "sim.warmup=2000",
          "sim.measure=6000"};
}

int64_t cc(const nlohmann::json& r, const char* key) { return r["congestion"][key].get<int64_t>(); }

}  // namespace

TEST(Srp, EveryPacketIsDeliveredOnceThroughFabricDrops) {
  // A 5-cycle timeout drops speculative packets all over the fabric.
  for (const char* protocol : {"srp", "smsrp"}) {
    auto r = test::run(with(hotspot(protocol, 0.2), {"congestion.srp_timeout=5", "traffic.message_size=2"}));
    EXPECT_GT(cc(r, "drops"), 100) << protocol;
    EXPECT_GE(cc(r, "drops"), cc(r, "nacks")) << protocol;    // the last NACKs may still travel
    EXPECT_GE(cc(r, "nacks"), cc(r, "resends")) << protocol;  // some may still await their grant
    EXPECT_GT(cc(r, "guaranteed_sent"), 0) << protocol;
    EXPECT_FALSE(r["saturated"].get<bool>()) << protocol;  // every packet of the window arrived (conservation too)
    EXPECT_EQ(r["packets_measured"].get<int64_t>(), 2 * r["messages_measured"].get<int64_t>()) << protocol;
  }
}

TEST(Srp, ReservesEveryMessageWhileSmsrpReservesOnlyAfterADrop) {
  const std::vector<std::string> ur = {"congestion.acks=true", "traffic.load=0.2", "traffic.packet_size=4",
                                       "router.vcs=3"};
  auto srp = test::run(with(ur, {"congestion.protocol=srp"}));
  auto smsrp = test::run(with(ur, {"congestion.protocol=smsrp"}));
  EXPECT_EQ(cc(srp, "reservations"), cc(srp, "speculative_sent"));  // one 1-packet message each
  EXPECT_GT(srp["ejection"]["reservation"].get<double>(), 0.0);
  EXPECT_GT(srp["ejection"]["grant"].get<double>(), 0.0);
  EXPECT_EQ(cc(smsrp, "drops"), 0);
  EXPECT_EQ(cc(smsrp, "reservations"), 0);
  EXPECT_EQ(smsrp["ejection"]["reservation"].get<double>(), 0.0);
}

TEST(Srp, CbcmPresetLetsMessagesUnderFourPacketsSkipTheProtocol) {
  const std::vector<std::string> base = {"congestion.protocol=srp", "congestion.srp_preset=cbcm", "traffic.load=0.2",
                                         "traffic.packet_size=4"};
  auto small = test::run(with(base, {"traffic.message_size=3"}));
  EXPECT_EQ(cc(small, "reservations"), 0);
  EXPECT_EQ(cc(small, "speculative_sent"), 0);
  EXPECT_EQ(small["congestion"]["timeout"], 2000);
  auto large = test::run(with(base, {"traffic.message_size=4"}));
  EXPECT_GT(cc(large, "reservations"), 0);
  EXPECT_LE(cc(large, "speculative_sent"), 4 * cc(large, "reservations"));  // the rest goes at the grant
}

TEST(Srp, ReservationOverheadCutsUniformSaturationThroughput) {
  // 4-flit messages: reservation, grant and ACK add 3 flits per 4 data flits.
  const std::vector<std::string> ur = {"congestion.acks=true", "traffic.load=0.8", "traffic.packet_size=4",
                                       "router.vcs=3"};
  auto none = test::run(with(ur, {"congestion.protocol=none"}));
  auto srp = test::run(with(ur, {"congestion.protocol=srp"}));
  EXPECT_LT(srp["accepted_throughput"].get<double>(), 0.85 * none["accepted_throughput"].get<double>());
}

TEST(Srp, HotspotThroughputLosesTheReservationShareOfTheEjectionChannel) {
  // 1.5x over-subscribed: 'none' keeps the hot nodes' ejection channels full
  // of data, SRP's reservations take their share (003 Fig. 5b: 70%).
  auto none = test::run(hotspot("none", 0.5));
  auto srp = test::run(hotspot("srp", 0.5));
  EXPECT_LT(srp["accepted_throughput"].get<double>(), 0.85 * none["accepted_throughput"].get<double>());
  EXPECT_GT(srp["ejection"]["reservation"].get<double>(), 0.0);
}

TEST(Srp, SpeculativeProtocolsRequireAcks) {
  EXPECT_THROW(test::run({"congestion.protocol=smsrp", "congestion.acks=false"}), ConfigError);
}
