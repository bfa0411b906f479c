// router.va_arbiter: the VC allocator's arbitration among inputs that want the same output.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "test_util.h"

namespace ccsim {
namespace {

// 000 Fig. 2's hot spot on FB16 without congestion management: nodes 0, 5, 8, 12 -> node 4 at
// 100%. Node 5 enters node 4's router from a terminal port, the others each from the port of
// their router's channel, so the four contend for node 4's ejection port at one router.
nlohmann::json hotspot_run(const std::string& arbiter, const std::string& routing) {
  const std::string base = std::string(test::kCbcmFb16Network) + test::kFb16HotspotClasses;
  return test::run(
      {"router.va_arbiter=\"" + arbiter + "\"", "routing.algorithm=\"" + routing + "\"", "congestion.protocol=\"none\"",
       "traffic.load=0.1", "sim.warmup=3000", "sim.measure=6000", "sim.drain_cap=2000"},
      base.c_str());
}

std::vector<double> hotspot_shares(const nlohmann::json& r) {
  const auto& acc = r["classes"]["hotspot"]["node_accepted"];
  std::vector<double> out;
  for (int n : {0, 5, 8, 12}) out.push_back(acc[n].get<double>());
  return out;
}

TEST(VaArbiter, RoundRobinGivesTheHotSpotSendersEqualShares) {
  for (double s : hotspot_shares(hotspot_run("round_robin", "min"))) EXPECT_NEAR(s, 0.25, 0.0125);
  // UGAL sends some hot-spot packets through a third router, where they meet other contention.
  for (double s : hotspot_shares(hotspot_run("round_robin", "ugal_l"))) EXPECT_NEAR(s, 0.25, 0.03);
}

TEST(VaArbiter, TransitPriorityServesTransitInputsFirst) {
  // Node 5 injects at the hot spot's router; the other three senders arrive on transit ports and
  // between them keep the ejection port busy, so node 5 gets only what they leave.
  const auto shares = hotspot_shares(hotspot_run("transit_priority", "min"));
  EXPECT_LT(shares[1], 0.02);
  for (int i : {0, 2, 3}) EXPECT_NEAR(shares[i], 1.0 / 3, 0.02);
}

TEST(VaArbiter, RotatingStartFavoursSomeInputs) {
  // The rotating start is one for all outputs and moves every cycle: an input's share of a
  // contended output follows the inputs numbered before it (the option is not a no-op).
  const auto shares = hotspot_shares(hotspot_run("rotating", "min"));
  EXPECT_GT(*std::max_element(shares.begin(), shares.end()), 1.5 * *std::min_element(shares.begin(), shares.end()));
}

TEST(VaArbiter, RoundRobinKeepsTheUniformTrafficWhole) {
  // With fair arbitration the UR nodes' packets to the hot spot's router get their turn at
  // the shared channels: every UR source delivers what it offers.
  const auto r = hotspot_run("round_robin", "min");
  const auto& ur = r["classes"]["ur"];
  EXPECT_NEAR(ur["accepted_throughput"].get<double>(), ur["generated_load"].get<double>(), 0.005);
  EXPECT_GT(ur["node_accepted_min"].get<double>(), 0.085);
}

TEST(VaArbiter, BadValueNamesTheKey) {
  EXPECT_EQ(test::config_error_key({"router.va_arbiter=\"fair\""}), "router.va_arbiter");
}

}  // namespace
}  // namespace ccsim
