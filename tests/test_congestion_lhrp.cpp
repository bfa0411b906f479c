// LHRP (003 section 3.2): speculative packets dropped at the last-hop switch,
// NACKed with a retransmission time, resent non-speculatively; every packet
// still delivered exactly once.
#include <gtest/gtest.h>

#include "test_util.h"

using namespace ccsim;

namespace {

std::vector<std::string> hotspot(const std::string& protocol, double load) {
  return {"congestion.protocol=" + protocol, "traffic.pattern=hotspot", "traffic.hotspot_sources=12",
          "traffic.hotspot_dests=4", "traffic.load=" + std::to_string(load), "traffic.packet_size=4",
          "routing.algorithm=min", "router.vcs=3", "sim.warmup=2000", "sim.measure=6000"};
}

}  // namespace

TEST(Lhrp, EveryPacketIsDeliveredOnceThroughHeavyDrops) {
  // 8 senders to 2 nodes at 80% of their ejection bandwidth, threshold 8 flits:
  // bursts overflow the threshold all the time, but the run drains.
  auto r = test::run({"congestion.protocol=lhrp", "congestion.lhrp_threshold=8", "traffic.pattern=hotspot",
                      "traffic.hotspot_sources=8", "traffic.hotspot_dests=2", "traffic.load=0.2",
                      "traffic.packet_size=4", "traffic.message_size=2"});
  const auto& cc = r["congestion"];
  EXPECT_GT(cc["drops"].get<int64_t>(), 1000);
  EXPECT_GE(cc["drops"].get<int64_t>(), cc["nacks"].get<int64_t>());  // the last NACKs may still travel
  EXPECT_EQ(cc["resends"], cc["nacks"]);
  EXPECT_FALSE(r["saturated"].get<bool>());  // every packet of the window arrived (conservation checked too)
  EXPECT_EQ(r["packets_measured"].get<int64_t>(), 2 * r["messages_measured"].get<int64_t>());
  EXPECT_GT(r["ejection"]["nack"].get<double>(), 0.0);
}

TEST(Lhrp, OversubscribedHotspotsKeepLowerNetworkLatencyThanNoControl) {
  for (double load : {0.4, 1.0}) {  // 1.3x and 3x over-subscription of the hot nodes
    auto none = test::run([&] {
      auto v = hotspot("none", load);
      v.push_back("congestion.acks=true");
      return v;
    }());
    auto lhrp = test::run([&] {
      auto v = hotspot("lhrp", load);
      v.push_back("congestion.lhrp_threshold=64");
      return v;
    }());
    EXPECT_GT(lhrp["congestion"]["drops"].get<int64_t>(), 0);
    EXPECT_LT(lhrp["avg_network_latency"].get<double>(), 0.6 * none["avg_network_latency"].get<double>())
        << "load " << load;
  }
}

TEST(Lhrp, UniformSaturationThroughputMatchesNoControl) {
  const std::vector<std::string> ur = {"traffic.load=0.8", "traffic.packet_size=4", "router.vcs=3"};
  auto none = test::run([&] {
    auto v = ur;
    v.push_back("congestion.acks=true");
    return v;
  }());
  auto lhrp = test::run([&] {
    auto v = ur;
    v.push_back("congestion.protocol=lhrp");
    return v;
  }());
  EXPECT_NEAR(lhrp["accepted_throughput"].get<double>(), none["accepted_throughput"].get<double>(),
              0.05 * none["accepted_throughput"].get<double>());
}
