// SRP and SMSRP (003 sections 2.2 and 3.1): reservations and grants,
// speculative packets dropped after a queuing timeout anywhere in the fabric,
// NACKs, guaranteed retransmission at the granted time; every packet still
// delivered exactly once.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <unordered_map>

#include "congestion/speculative.h"
#include "core/network.h"
#include "registry.h"
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

// Wraps the routing function to watch, from the network's side, SRP's
// speculation: a speculative data packet is in flight from its first router
// until its ACK or NACK is routed at its first router (before the source hears
// of it, so this undercounts what the source holds). Counts, per (source,
// destination), the messages with speculative packets in flight, and keeps the
// largest count seen.
class SpeculationWatch : public test::ForwardingRouting {
 public:
  explicit SpeculationWatch(std::unique_ptr<RoutingFunction> inner) : ForwardingRouting(std::move(inner)) {}
  RouteResult route(RouterContext& c, int in, Packet& p) override {
    if (p.hops == 0) watch(p);
    return inner_->route(c, in, p);
  }

  int max_messages_in_flight = 0;         // per (source, destination), at any time
  int max_source_messages_in_flight = 0;  // per source, over all its destinations
  int64_t speculative_seen = 0;

 private:
  void watch(const Packet& p) {
    if (p.kind == kDataPacket && p.vc_class == SpeculativeProtocol::kSpeculativeClass) {
      ++speculative_seen;
      const auto flow = std::make_pair(p.src, p.dst);
      packets_[p.id] = {flow, p.message_id};
      if (messages_[p.message_id]++ == 0) {
        max_messages_in_flight = std::max(max_messages_in_flight, ++flows_[flow]);
        max_source_messages_in_flight = std::max(max_source_messages_in_flight, ++sources_[p.src]);
      }
    } else if (p.kind == kAckPacket || p.kind == kNackPacket) {
      auto it = packets_.find(p.ref);
      if (it == packets_.end()) return;  // the ACK of a guaranteed packet
      auto m = messages_.find(it->second.second);
      if (--m->second == 0) {
        messages_.erase(m);
        --flows_[it->second.first];
        --sources_[it->second.first.first];
      }
      packets_.erase(it);
    }
  }
  std::unordered_map<uint64_t, std::pair<std::pair<int, int>, uint64_t>> packets_;  // id -> (flow, message)
  std::unordered_map<uint64_t, int> messages_;  // message -> its speculative packets in flight
  std::map<std::pair<int, int>, int> flows_;    // (src, dst) -> messages with speculative packets in flight
  std::map<int, int> sources_;                  // src -> the same over all its destinations
};

struct Watched {
  nlohmann::json result;
  int max_messages_in_flight;
  int max_source_messages_in_flight;
  int64_t speculative_seen;
};

Watched run_watched(const std::vector<std::string>& sets) {
  const Config cfg = test::config(sets);
  auto topo = find_topology("dragonfly").make(cfg);
  auto watch = std::make_unique<SpeculationWatch>(
      find_routing("dragonfly", cfg.get_string("routing.algorithm")).make(cfg, *topo));
  SpeculationWatch& w = *watch;
  static int instance = 0;
  Network net(("srp_watch_" + std::to_string(instance++)).c_str(), cfg, std::move(watch));
  nlohmann::json r = net.run();
  return {r, w.max_messages_in_flight, w.max_source_messages_in_flight, w.speculative_seen};
}

}  // namespace

TEST(Srp, EveryPacketIsDeliveredOnceThroughFabricDrops) {
  // A 5-cycle timeout drops speculative packets all over the fabric. SRP's
  // speculation limit holds each (source, destination) to one message per
  // reservation round trip or so: 0.15 is below where that saturates.
  struct Case {
    const char* protocol;
    double load;
    std::string limit;
  };
  for (const Case& c : {Case{"srp", 0.15, "1"}, Case{"srp", 0.2, "0"}, Case{"smsrp", 0.2, ""}}) {
    std::vector<std::string> sets =
        with(hotspot(c.protocol, c.load), {"congestion.srp_timeout=5", "traffic.message_size=2"});
    if (!c.limit.empty()) sets.push_back("congestion.srp_speculative_limit=" + c.limit);
    const std::string protocol = std::string(c.protocol) + c.limit;
    auto r = test::run(sets);
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
  // One 1-packet message each: speculative, or held back by the speculation limit.
  EXPECT_EQ(cc(srp, "reservations"), cc(srp, "speculative_sent") + cc(srp, "speculative_limited"));
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

TEST(Srp, CbcmPresetAcksOnlySpeculativePackets) {
  // 1-flit packets: ejected ACK flits count ACKed packets. Every data packet is ACKed under
  // srp_acks = all; under the cbcm preset only the speculative ones, and every message
  // still completes (the run checks exactly-once delivery and that no message is left).
  const std::vector<std::string> base = {"congestion.protocol=srp", "congestion.srp_preset=cbcm", "traffic.load=0.3",
                                         "traffic.message_size=4"};
  auto spec = test::run(base);
  auto all = test::run(with(base, {"congestion.srp_acks=all"}));
  const double sent = cc(spec, "speculative_sent") + cc(spec, "guaranteed_sent");
  ASSERT_GT(cc(spec, "speculative_sent"), 0);
  ASSERT_GT(cc(spec, "guaranteed_sent"), 0);
  EXPECT_NEAR(spec["ejection"]["ack"].get<double>() / spec["ejection"]["data"].get<double>(),
              cc(spec, "speculative_sent") / sent, 0.02);
  EXPECT_NEAR(all["ejection"]["ack"].get<double>(), all["ejection"]["data"].get<double>(), 0.005);
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

// 000 III-B: "SRP restricts the number of speculative packets that can be
// injected into the network (e.g., up to 1 message per destination from each
// source)". 12 sources, each with many messages in flight to each of 4 hot
// nodes: with the limit, no (source, destination) ever has more than that many
// messages with speculative packets in the network; the others wait for their
// grant and go guaranteed. Without it, dozens do.
TEST(Srp, SpeculativeLimitBoundsMessagesInSpeculativeFlightPerDestination) {
  for (int limit : {1, 2}) {
    auto w = run_watched(with(hotspot("srp", 0.5), {"congestion.srp_speculative_limit=" + std::to_string(limit)}));
    EXPECT_GT(w.speculative_seen, 1000) << limit;
    EXPECT_EQ(w.max_messages_in_flight, limit) << limit;
    EXPECT_LE(cc(w.result, "max_speculative_messages_in_flight"), limit) << limit;
    EXPECT_GT(cc(w.result, "speculative_limited"), 1000) << limit;
  }
  auto unlimited = run_watched(with(hotspot("srp", 0.5), {"congestion.srp_speculative_limit=0"}));
  EXPECT_GT(unlimited.max_messages_in_flight, 10);
  EXPECT_EQ(cc(unlimited.result, "speculative_limited"), 0);
}

// congestion.srp_speculative_scope = "source" (ours): the limit counts a source's messages to
// all destinations together, so under uniform random traffic a source has one message in
// speculative flight at most, where per destination (000) it has several.
TEST(Srp, SpeculativeLimitPerSourceCountsEveryDestination) {
  const std::vector<std::string> ur = {"congestion.protocol=srp",
                                       "congestion.srp_speculative_limit=1",
                                       "traffic.pattern=uniform",
                                       "traffic.load=0.4",
                                       "traffic.packet_size=4",
                                       "traffic.message_size=4",
                                       "router.vcs=3",
                                       "sim.warmup=1000",
                                       "sim.measure=4000"};
  auto per_destination = run_watched(ur);
  EXPECT_GT(per_destination.max_source_messages_in_flight, 1);
  auto per_source = run_watched(with(ur, {"congestion.srp_speculative_scope=\"source\""}));
  EXPECT_GT(per_source.speculative_seen, 1000);
  EXPECT_EQ(per_source.max_source_messages_in_flight, 1);
  EXPECT_GT(cc(per_source.result, "speculative_limited"), 2 * cc(per_destination.result, "speculative_limited"));
  EXPECT_EQ(test::config_error_key({"congestion.protocol=srp", "congestion.srp_speculative_scope=\"group\""}),
            "congestion.srp_speculative_scope");
}

// 003 Fig. 5b's SRP plateau at small scale: 68 sources to 4 hot nodes, 4-flit
// messages, from 2x to 8.5x the hot nodes' bandwidth. Limited, the sources
// cannot outrun their grants: the hot nodes stay at ~80% data (reservations
// take the rest: one flit per 4-flit message). Unlimited, every message sends
// its reservation at once and speculates: reservations, NACKed retries and
// grants crowd out the data and accepted throughput collapses.
TEST(Srp, SpeculativeLimitKeepsAPlateauOfAcceptedThroughputPastSaturation) {
  auto hot_share = [](int limit, double load) {
    auto r = test::run({"congestion.protocol=srp", "congestion.srp_speculative_limit=" + std::to_string(limit),
                        "traffic.pattern=hotspot", "traffic.hotspot_sources=0", "traffic.hotspot_dests=4",
                        "traffic.load=" + std::to_string(load), "traffic.packet_size=4", "router.vcs=3",
                        "sim.warmup=2000", "sim.measure=6000"});
    return r["accepted_throughput"].get<double>() * 72 / 4;  // data per hot node per cycle
  };
  const double limited_2x = hot_share(1, 0.12), limited_8x = hot_share(1, 0.5);
  const double unlimited_2x = hot_share(0, 0.12), unlimited_8x = hot_share(0, 0.5);
  EXPECT_GT(limited_2x, 0.7);
  EXPECT_GT(limited_8x, 0.95 * limited_2x);     // a plateau
  EXPECT_LT(unlimited_8x, 0.5 * unlimited_2x);  // a collapse
  EXPECT_LT(unlimited_8x, 0.3 * limited_8x);
}

TEST(Srp, SmsrpHasNoSpeculativeLimitUnlessAsked) {
  // 003 3.1: SMSRP sends every message speculatively first; SRP's limit is not its key.
  EXPECT_THROW(test::config({"congestion.protocol=smsrp", "congestion.srp_speculative_limit=1"}), ConfigError);
  auto unlimited = run_watched(hotspot("smsrp", 0.5));
  EXPECT_GT(unlimited.max_messages_in_flight, 10);
  EXPECT_FALSE(unlimited.result["congestion"].contains("speculative_limit"));
}

// congestion.smsrp_speculative_limit (off by default): a message beyond it waits at its
// source, unsent, until one of its destination's messages has all its speculative packets
// ACKed or NACKed.
TEST(Srp, SmsrpLimitBoundsMessagesInSpeculativeFlightPerDestination) {
  auto w = run_watched(with(hotspot("smsrp", 0.5), {"congestion.smsrp_speculative_limit=2"}));
  EXPECT_GT(w.speculative_seen, 1000);
  EXPECT_EQ(w.max_messages_in_flight, 2);
  EXPECT_LE(cc(w.result, "max_speculative_messages_in_flight"), 2);
}

// congestion.lhrp_speculative_limit (off by default) holds LHRP's sources the same way:
// a message waits unsent until one of its destination's messages has sent all its
// packets and heard an ACK or a (timed) NACK for each.
TEST(Srp, LhrpLimitBoundsMessagesInSpeculativeFlightPerDestination) {
  auto unlimited = run_watched(hotspot("lhrp", 0.5));
  EXPECT_GT(unlimited.max_messages_in_flight, 2);
  EXPECT_FALSE(unlimited.result["congestion"].contains("lhrp_speculative_limit"));
  auto w =
      run_watched(with(hotspot("lhrp", 0.5), {"congestion.lhrp_speculative_limit=2", "congestion.lhrp_threshold=8"}));
  EXPECT_GT(w.speculative_seen, 1000);
  EXPECT_GT(cc(w.result, "nacks_with_time"), 100);  // the limit is reached through last-hop drops too
  EXPECT_EQ(w.max_messages_in_flight, 2);
  EXPECT_LE(cc(w.result, "max_speculative_messages_in_flight"), 2);
}

// With fabric drop a reservation-less NACK sends the packet speculatively again; the limit
// still holds, for messages of two packets too.
TEST(Srp, LhrpLimitHoldsThroughFabricDrops) {
  auto w = run_watched(with(hotspot("lhrp", 0.5), {"congestion.lhrp_speculative_limit=2", "congestion.lhrp_threshold=8",
                                                   "congestion.lhrp_fabric_timeout=5", "traffic.message_size=2"}));
  EXPECT_GT(cc(w.result, "fabric_drops"), 20);
  EXPECT_GT(cc(w.result, "nacks_with_time"), 0);
  EXPECT_EQ(w.max_messages_in_flight, 2);
  EXPECT_LE(cc(w.result, "max_speculative_messages_in_flight"), 2);
}
