// Combined traffic classes, phases and time series on the small dragonfly.
#include <gtest/gtest.h>

#include <string>

#include "test_util.h"

using namespace ccsim;

namespace {

std::string with(const std::string& extra) { return std::string(test::kSmallDragonfly) + extra; }

nlohmann::json run_toml(const std::string& text, const std::vector<std::string>& sets = {}) {
  return test::run(sets, text.c_str());
}

// Per-class counts add up to the overall ones; the overall mean latency is the
// packet-weighted mean of the classes'.
void expect_classes_add_up(const nlohmann::json& r) {
  int64_t packets = 0, flits = 0;
  double latency = 0;
  for (auto& [name, c] : r["classes"].items()) {
    packets += c["packets_measured"].get<int64_t>();
    flits += c["accepted_flits"].get<int64_t>();
    latency += c["avg_packet_latency"].get<double>() * c["packets_measured"].get<double>();
  }
  EXPECT_EQ(packets, r["packets_measured"].get<int64_t>());
  EXPECT_EQ(flits, r["accepted_flits"].get<int64_t>());
  EXPECT_NEAR(latency / static_cast<double>(packets), r["avg_packet_latency"].get<double>(), 1e-6);
}

// 000 Fig. 8b's shape: UR among the remaining nodes + 8 hotspot senders at 100% to one node.
const char* const kUniformPlusHotspot = R"(
[traffic]
load = 0.2
[[traffic.class]]
name = "ur"
nodes = "rest"
[[traffic.class]]
name = "hot"
nodes = "random:9"
pattern = "hotspot"
hotspot_sources = 8
hotspot_dests = 1
load = 1.0
)";

}  // namespace

// 000 Fig. 8b shape: UR among the remaining nodes + random hotspot senders at 100% to one node.
TEST(TrafficClasses, UniformPlusHotspotSendersReportPerClassFiguresThatAddUp) {
  auto r = run_toml(with(kUniformPlusHotspot));
  ASSERT_TRUE(r["classes"].contains("ur") && r["classes"].contains("hot"));
  EXPECT_EQ(r["classes"]["hot"]["sources"], 8);
  EXPECT_EQ(r["classes"]["ur"]["sources"], 63);
  // One destination ejects at most a flit per cycle, shared by 8 senders.
  EXPECT_LE(r["classes"]["hot"]["accepted_throughput"].get<double>(), 1.0 / 8 + 0.005);
  EXPECT_GT(r["classes"]["hot"]["accepted_throughput"].get<double>(), 0.1);
  EXPECT_EQ(r["classes"]["hot"]["node_accepted"].size(), 72u);
  expect_classes_add_up(r);
}

// -s traffic.class.NAME.KEY sets one class's key (000 Fig. 12's senders throttled to 1/N by hand);
// a name no class has gets one line listing the classes.
TEST(TrafficClasses, ASetNamingAClassChangesThatClassOnly) {
  const std::string text = with(kUniformPlusHotspot);
  auto r = run_toml(text, {"traffic.class.hot.load=0.05"});
  EXPECT_NEAR(r["classes"]["hot"]["offered_load"].get<double>(), 0.05, 0.01);
  EXPECT_NEAR(r["classes"]["ur"]["offered_load"].get<double>(), 0.2, 0.02);
  try {
    run_toml(text, {"traffic.class.cold.load=0.05"});
    ADD_FAILURE() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "traffic.class.cold.load: no [[traffic.class]] is named \"cold\"; classes: ur, hot");
  }
}

// 000 Fig. 5b/8c shape: two UR classes on the two halves of every router's nodes.
TEST(TrafficClasses, TwoUniformClassesOnHalvesOfEachRouterKeepTheirMessageSizes) {
  auto r = run_toml(with(R"(
[traffic]
load = 0.2
[[traffic.class]]
name = "ur1"
nodes = "router_index:0"
message_size = 4
[[traffic.class]]
name = "ur2"
nodes = "router_index:1"
load = 0.3
)"));
  auto& c1 = r["classes"]["ur1"];
  auto& c2 = r["classes"]["ur2"];
  EXPECT_EQ(c1["sources"], 36);
  EXPECT_EQ(c2["sources"], 36);
  EXPECT_NEAR(c1["generated_load"].get<double>(), 0.2, 0.02);
  EXPECT_NEAR(c2["generated_load"].get<double>(), 0.3, 0.02);
  EXPECT_EQ(c1["packets_measured"].get<int64_t>(), 4 * c1["messages_measured"].get<int64_t>());
  EXPECT_GT(c1["avg_message_latency"].get<double>(), c1["avg_packet_latency"].get<double>());
  expect_classes_add_up(r);
}

// 003 Fig. 6 shape: a hotspot class that starts late shows up in the series only from its start.
TEST(TrafficClasses, ALateClassAppearsInTheTimeSeriesAtItsStart) {
  auto r = run_toml(with(R"(
[traffic]
load = 0.3
[[traffic.class]]
name = "ur"
nodes = "rest"
[[traffic.class]]
name = "hot"
nodes = "random:8"
pattern = "hotspot"
hotspot_sources = 0
hotspot_dests = 2
load = 0.5
start = "2us"
)"),
                    {"sim.series_window=250"});
  auto& s = r["series"];
  EXPECT_EQ(s["window_cycles"], 250);
  EXPECT_EQ(s["t"].size(), 20u);  // (1000 warm-up + 4000 measured) / 250
  const auto& hot = s["classes"]["hot"]["packets"];
  for (size_t b = 0; b < 8; ++b) EXPECT_EQ(hot[b], 0) << "window " << b;  // before cycle 2000
  for (size_t b = 9; b < 20; ++b) EXPECT_GT(hot[b].get<int64_t>(), 0) << "window " << b;
  expect_classes_add_up(r);
}

// 001/002: uniform, then ADV+1 from the end of warm-up; MIN's throughput falls to its bound.
TEST(TrafficClasses, APatternSwitchShowsInTheSeriesRightAfterIt) {
  auto r = run_toml(with(R"(
[traffic]
load = 0.3
[[traffic.phase]]
at = 1000
pattern = "adv"
offset = 1
)"),
                    {"sim.series_window=250"});
  auto& thr = r["series"]["overall"]["accepted_throughput"];
  double before = 0, after = 0;
  for (size_t b = 1; b < 4; ++b) before += thr[b].get<double>() / 3;   // cycles 250..1000: uniform
  for (size_t b = 8; b < 20; ++b) after += thr[b].get<double>() / 12;  // 1000 cycles after the switch
  EXPECT_NEAR(before, 0.3, 0.03);
  // ADV+1 under MIN: one global channel per group pair carries 8 nodes' traffic -> 1/8.
  EXPECT_LT(after, 0.125 * 1.1);
  EXPECT_EQ(r["traffic_classes"][0]["phases"], 2);
}

TEST(TrafficClasses, OnOffBurstsKeepTheAverageLoad) {
  auto bursty =
      test::run({"traffic.load=0.2", "traffic.injection=onoff", "traffic.burst_length=16", "sim.measure=20000"});
  auto smooth = test::run({"traffic.load=0.2", "sim.measure=20000"});
  EXPECT_NEAR(bursty["generated_load"].get<double>(), 0.2, 0.01);
  // Same mean load, queued in bursts: higher tail latency.
  EXPECT_GT(bursty["latency_p99"].get<double>(), smooth["latency_p99"].get<double>());
  EXPECT_THROW(test::run({"traffic.load=0.5", "traffic.injection=onoff", "traffic.burst_rate=0.4"}), ConfigError);
}

TEST(TrafficClasses, BadClassesGetOneLineNamingTheKey) {
  auto error = [](const std::string& extra) {
    try {
      test::run({}, with(extra).c_str());
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("[[traffic.class]]\nlod = 0.3\n").rfind("traffic.class[0].lod: unknown key", 0), 0u);
  EXPECT_EQ(
      error("[[traffic.class]]\nload = 1.5\n").rfind("traffic.class[0].load: 1.5 flits/node/cycle is more than", 0),
      0u);
  EXPECT_EQ(error("[[traffic.class]]\nname = \"a\"\n[[traffic.class]]\nname = \"a\"\n"),
            "traffic.class[1].name: \"a\" is already the name of another class");
  EXPECT_EQ(error("[[traffic.class]]\nnodes = \"all\"\n[[traffic.class]]\nnodes = \"rest\"\n"),
            "traffic.class[1].nodes: \"rest\" is empty: the other classes take every node");
  EXPECT_EQ(error("[[traffic.phase]]\npattern = \"adv\"\n"),
            "traffic.phase[0].at: missing: the cycle (or time such as \"20us\") it begins");
  EXPECT_EQ(error("[[traffic.class]]\nnodes = \"half\"\n").rfind("traffic.class[0].nodes: unknown node selection", 0),
            0u);
}

TEST(TrafficClasses, PrintedConfigReloadsToTheSameClasses) {
  const std::string text = with(R"(
[[traffic.class]]
name = "ur"
nodes = [1, 2, 3, 4]
[[traffic.class]]
name = "adv"
nodes = "rest"
pattern = "adv"
offset = 2
[[traffic.class.phase]]
at = 3000
load = 0.4
)");
  const Config a = test::config({}, text.c_str());
  const Config b = test::config({}, config_to_toml(a).c_str());
  ASSERT_EQ(b.classes.size(), 2u);
  EXPECT_EQ(b.classes[0].get_string("traffic.nodes"), "list:1,2,3,4");
  EXPECT_EQ(b.classes[1].get_int("traffic.offset"), 2);
  ASSERT_EQ(b.classes[1].phases.size(), 1u);
  EXPECT_EQ(b.classes[1].phases[0].get_int("traffic.at"), 3000);
  EXPECT_EQ(b.classes[1].phases[0].get_float("traffic.load"), 0.4);
  EXPECT_EQ(b.classes[1].phases[0].get_string("traffic.pattern"), "adv");
}
