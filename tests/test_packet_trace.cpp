// Packet traces (sim.trace = "packets"): at zero load a traced packet's life
// is the sum of its hop latencies along a path of connected routers, the
// Chrome trace parses with the trace-event fields, the filters and the cap
// hold, drops and resends appear, and tracing changes no result.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "test_util.h"

namespace ccsim {
namespace {

struct Event {
  std::string event, port_kind;
  int64_t cycle;
  int src, dst, router, port, wait;
  std::string kind;
};

std::string trace_path(const std::string& name) { return testing::TempDir() + "ccsim_trace_" + name + ".json"; }

// The CSV's events, by packet (in time order within one).
std::map<uint64_t, std::vector<Event>> read_csv(const std::string& json_path) {
  std::ifstream f(json_path.substr(0, json_path.size() - 5) + ".csv");
  std::string line;
  std::getline(f, line);
  EXPECT_EQ(line, "packet,kind,src,dst,class,size,answers,event,cycle,router,node,port,vc,port_kind,wait_cycles");
  std::map<uint64_t, std::vector<Event>> out;
  while (std::getline(f, line)) {
    std::vector<std::string> c;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) c.push_back(cell);
    c.resize(15);
    auto num = [](const std::string& s) { return s.empty() ? -1 : std::stoi(s); };
    out[std::stoull(c[0])].push_back(
        {c[7], c[13], std::stoll(c[8]), num(c[2]), num(c[3]), num(c[9]), num(c[11]), num(c[14]), c[1]});
  }
  return out;
}

std::vector<std::string> traced(const std::string& name, std::vector<std::string> sets) {
  sets.insert(sets.end(), {"sim.trace=\"packets\"", "sim.trace_file=\"" + trace_path(name) + "\""});
  return sets;
}

TEST(PacketTrace, ZeroLoadLivesAreTheSumOfHopLatenciesAlongConnectedRouters) {
  // 72-node dragonfly, p = 2 nodes per router; router 3 cycles, channels:
  // terminal 1, local 10, global 100 cycles.
  auto r = test::run(traced("zero", {"traffic.load=0.002", "traffic.packet_size=4", "sim.measure=6000"}));
  ASSERT_TRUE(r.contains("trace"));
  EXPECT_FALSE(r["trace"]["truncated"].get<bool>());
  const std::map<std::string, int> channel = {{"terminal", 1}, {"local", 10}, {"global", 100}};
  const auto packets = read_csv(trace_path("zero"));
  ASSERT_GT(packets.size(), 100u);
  EXPECT_EQ(static_cast<int64_t>(packets.size()), r["trace"]["packets"].get<int64_t>());
  int hops = 0, waited = 0;
  for (auto& [id, ev] : packets) {
    if (ev.back().event != "delivered") continue;  // created near the end: still travelling
    ASSERT_GE(ev.size(), 5u) << "packet " << id;
    EXPECT_EQ(ev[0].event, "created");
    EXPECT_EQ(ev[1].event, "injected");
    EXPECT_EQ(ev[2].event, "arrived");
    EXPECT_EQ(ev[2].router, ev[0].src / 2) << "enters at its source's router";
    EXPECT_EQ(ev[2].cycle - ev[1].cycle, 1) << "injection channel";
    for (size_t i = 2; i + 1 < ev.size(); i += 2) {
      ASSERT_EQ(ev[i].event, "arrived");
      ASSERT_EQ(ev[i + 1].event, "departed");
      EXPECT_EQ(ev[i + 1].router, ev[i].router);
      EXPECT_EQ(ev[i + 1].wait, ev[i + 1].cycle - ev[i].cycle - 3);
      EXPECT_GE(ev[i + 1].wait, 0);
      waited += ev[i + 1].wait > 0;
      ++hops;
      const Event& next = ev[i + 2];
      if (next.event == "arrived") {
        EXPECT_NE(ev[i + 1].port_kind, "terminal");
        EXPECT_EQ(next.cycle - ev[i + 1].cycle, channel.at(ev[i + 1].port_kind)) << "packet " << id;
      } else {
        EXPECT_EQ(ev[i + 1].port_kind, "terminal");
        EXPECT_EQ(ev[i + 1].router, ev[0].dst / 2) << "leaves at its destination's router";
        EXPECT_EQ(next.event, "delivered");
        EXPECT_EQ(next.cycle - ev[i + 1].cycle, 1 + 3) << "ejection channel, then the 3 body flits";
      }
    }
    EXPECT_LE(ev.size(), 2 + 2 * 4 + 1u) << "MIN takes at most 3 router-to-router channels";
  }
  EXPECT_GT(hops, 300);
  EXPECT_LT(waited, hops / 50) << "at 0.2% load almost no head waits";
}

TEST(PacketTrace, ChromeTraceHasTheTraceEventFields) {
  auto r = test::run(traced("chrome", {"traffic.load=0.05", "sim.measure=1000", "sim.trace_sample=0.2"}));
  std::ifstream f(trace_path("chrome"));
  const auto j = nlohmann::json::parse(f);  // throws on malformed JSON
  ASSERT_TRUE(j.contains("traceEvents"));
  int slices = 0, delivered = 0;
  for (auto& e : j["traceEvents"]) {
    for (const char* key : {"name", "ph", "ts", "pid", "tid"}) ASSERT_TRUE(e.contains(key)) << e.dump();
    const std::string ph = e["ph"];
    ASSERT_TRUE(ph == "X" || ph == "i" || ph == "M") << ph;
    if (ph == "X") {
      ASSERT_TRUE(e.contains("dur"));
      EXPECT_GE(e["dur"].get<double>(), 0);
      ++slices;
    }
    delivered += e["name"] == "delivered";
  }
  EXPECT_GT(slices, 100);
  EXPECT_GT(delivered, 10);
  EXPECT_LE(delivered, r["trace"]["packets"].get<int>());
}

TEST(PacketTrace, FiltersPickTheirPackets) {
  auto r = test::run(traced(
      "filter", {"traffic.load=0.1", "sim.trace_nodes=\"list:5,40\"", "sim.trace_start=2000", "sim.trace_stop=3000"}));
  const auto packets = read_csv(trace_path("filter"));
  ASSERT_GT(packets.size(), 20u);
  for (auto& [id, ev] : packets) {
    const int s = ev[0].src, d = ev[0].dst;
    EXPECT_TRUE(s == 5 || s == 40 || d == 5 || d == 40) << "packet " << id;
    EXPECT_GE(ev[0].cycle, 2000);
    EXPECT_LT(ev[0].cycle, 3000);
  }
  // A sampled share: about 10% of what the full trace holds.
  auto all = test::run(traced("all", {"traffic.load=0.1"}));
  auto tenth = test::run(traced("tenth", {"traffic.load=0.1", "sim.trace_sample=0.1"}));
  const double share = tenth["trace"]["packets"].get<double>() / all["trace"]["packets"].get<double>();
  EXPECT_NEAR(share, 0.1, 0.02);
}

TEST(PacketTrace, TheCapStopsTheTraceAndSaysWhen) {
  auto r = test::run(traced("cap", {"traffic.load=0.1", "sim.trace_max_events=500"}));
  EXPECT_TRUE(r["trace"]["truncated"].get<bool>());
  EXPECT_EQ(r["trace"]["events"].get<int>(), 500);
  EXPECT_GT(r["trace"]["truncated_at"].get<int64_t>(), 0);
}

TEST(PacketTrace, DropsResendsAndNacksAppearAndEveryPacketArrivesOnce) {
  // LHRP dropping at the last hop all the time (the exactly-once test's set-up).
  auto r = test::run(traced("lhrp", {"congestion.protocol=lhrp", "congestion.lhrp_threshold=8",
                                     "traffic.pattern=hotspot", "traffic.hotspot_sources=8", "traffic.hotspot_dests=2",
                                     "traffic.load=0.2", "traffic.packet_size=4", "traffic.message_size=2"}));
  int dropped = 0, nacks = 0;
  for (auto& [id, ev] : read_csv(trace_path("lhrp"))) {
    int drops = 0, resends = 0, delivered = 0;
    for (auto& e : ev) {
      drops += e.event == "dropped";
      resends += e.event == "resent";
      delivered += e.event == "delivered";
    }
    EXPECT_LE(delivered, 1) << "packet " << id;
    if (ev[0].kind == "data" && delivered == 1) {
      EXPECT_EQ(resends, drops) << "packet " << id;
    }
    dropped += drops > 0;
    nacks += ev[0].kind == "nack";
  }
  EXPECT_GT(dropped, 50);
  EXPECT_GT(nacks, 50) << "the NACKs of traced packets are traced";
}

TEST(PacketTrace, TracingChangesNoResult) {
  for (const char* protocol : {"none", "lhrp"}) {
    const std::vector<std::string> sets = {std::string("congestion.protocol=") + protocol, "traffic.pattern=hotspot",
                                           "traffic.hotspot_sources=8", "traffic.hotspot_dests=2", "traffic.load=0.2"};
    auto off = test::run(sets);
    auto on = test::run(traced("same", sets));
    EXPECT_FALSE(off.contains("trace"));
    for (auto* j : {&off, &on}) {
      j->erase("perf");
      j->erase("config");
      j->erase("trace");
    }
    EXPECT_EQ(off, on) << protocol;
  }
}

TEST(PacketTrace, BadSettingsNameTheirKey) {
  EXPECT_EQ(test::config_error_key({"sim.trace_sample=0.5"}), "sim.trace_sample");  // trace off
  EXPECT_EQ(test::config_error_key(traced("bad", {"sim.trace_class=\"nope\""})), "sim.trace_class");
  EXPECT_EQ(test::config_error_key(traced("bad", {"sim.trace_nodes=\"rest\""})), "sim.trace_nodes");
  EXPECT_EQ(test::config_error_key(traced("bad", {"sim.trace_nodes=\"list:99\""})), "sim.trace_nodes");
  EXPECT_EQ(test::config_error_key(traced("bad", {"sim.trace_start=500", "sim.trace_stop=100"})), "sim.trace_stop");
  EXPECT_EQ(test::config_error_key({"sim.trace=\"packets\"", "sim.trace_file=\"/nonexistent/dir/t.json\""}),
            "sim.trace_file");
  EXPECT_EQ(test::config_error_key({"sim.trace=\"flits\""}), "sim.trace");
}

}  // namespace
}  // namespace ccsim
