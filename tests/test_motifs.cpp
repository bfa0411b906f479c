// Application motifs (traffic.motif): schedules against hand counts, the
// dependency order under random message delays, zero-load completion against
// the analytic sum, determinism, mixing with synthetic classes, bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <queue>
#include <string>

#include "core/rng.h"
#include "test_util.h"
#include "traffic/motif_engine.h"
#include "traffic/motif_program.h"

using namespace ccsim;

namespace {

std::vector<std::vector<MotifStep>> programs(const std::string& name, int ranks, std::vector<int> grid = {},
                                             int iterations = 2) {
  MotifParams p;
  p.name = name;
  p.ranks = ranks;
  p.grid = std::move(grid);
  p.iterations = iterations;
  p.compute = 10;
  return motif_steps(p);
}

// Every message sent is received, pair by pair, and every rank has as many steps.
void expect_balanced(const std::vector<std::vector<MotifStep>>& prog) {
  std::map<std::pair<int, int>, int> sent, received;
  for (int r = 0; r < static_cast<int>(prog.size()); ++r) {
    ASSERT_EQ(prog[r].size(), prog[0].size()) << "rank " << r;
    for (auto& s : prog[r]) {
      for (int d : s.send_before) ++sent[{r, d}];
      for (int d : s.send_after) ++sent[{r, d}];
      for (int f : s.recv_from) ++received[{f, r}];
    }
  }
  EXPECT_EQ(sent, received);
}

}  // namespace

TEST(Motifs, Halo3dOnTwoByTwoByTwoSendsSixFacesPerRankPerIteration) {
  auto prog = programs("halo3d", 8, {2, 2, 2}, 3);
  ASSERT_EQ(prog.size(), 8u);
  for (auto& rp : prog) {
    ASSERT_EQ(rp.size(), 3u);  // one step per iteration
    for (auto& s : rp) {
      EXPECT_EQ(s.send_before.size(), 6u);
      EXPECT_EQ(s.recv_from.size(), 6u);
      EXPECT_EQ(s.compute, 10);
    }
  }
  // Rank 0 at (0,0,0): its x, y and z neighbours (1, 2, 4) twice each on a periodic 2-wide grid.
  std::multiset<int> n0(prog[0][0].send_before.begin(), prog[0][0].send_before.end());
  EXPECT_EQ(n0, (std::multiset<int>{1, 1, 2, 2, 4, 4}));
  expect_balanced(prog);
}

TEST(Motifs, HandCountsOfEveryMotif) {
  // halo3d26 on 3x3x3: 26 distinct neighbours.
  auto h26 = programs("halo3d26", 27, {3, 3, 3}, 1);
  std::set<int> distinct(h26[13][0].send_before.begin(), h26[13][0].send_before.end());
  EXPECT_EQ(distinct.size(), 26u);
  expect_balanced(h26);
  // halo2d on 4x4: 4 neighbours.
  EXPECT_EQ(programs("halo2d", 16, {4, 4})[5][0].send_before.size(), 4u);
  // alltoall of 5: 4 exchange steps, each rank sends to every other once per iteration.
  auto a2a = programs("alltoall", 5, {}, 1);
  ASSERT_EQ(a2a[0].size(), 4u);
  std::set<int> peers;
  for (auto& s : a2a[2]) peers.insert(s.send_before.begin(), s.send_before.end());
  EXPECT_EQ(peers, (std::set<int>{0, 1, 3, 4}));
  expect_balanced(a2a);
  // fft3d on 3x2: rows of 3 (2 steps), then columns of 2 (1 step).
  auto fft = programs("fft3d", 6, {3, 2}, 1);
  EXPECT_EQ(fft[0].size(), 3u);
  expect_balanced(fft);
  // allreduce of 6 (any count): 3 tree levels up and down; rank 0 receives 3 times, sends 3 times.
  auto ar = programs("allreduce", 6, {}, 1);
  EXPECT_EQ(ar[0].size(), 6u);
  int recv0 = 0, send0 = 0;
  for (auto& s : ar[0]) recv0 += static_cast<int>(s.recv_from.size()), send0 += static_cast<int>(s.send_before.size());
  EXPECT_EQ(recv0, 3);
  EXPECT_EQ(send0, 3);
  expect_balanced(ar);
  // sweep3d on 3x3, 2 k-slices: 4 corners x 2 blocks per iteration; the corner rank of the
  // first sweep waits for nobody, the far corner for two.
  auto sw = programs("sweep3d", 9, {3, 3}, 1);
  ASSERT_EQ(sw[0].size(), 8u);
  EXPECT_EQ(sw[0][0].recv_from.size(), 0u);
  EXPECT_EQ(sw[8][0].recv_from, (std::vector<int>{7, 5}));
  EXPECT_EQ(sw[8][0].send_after.size(), 0u);
  expect_balanced(sw);
  // incast of 4: rank 0 waits for 3.
  auto in = programs("incast", 4, {}, 1);
  EXPECT_EQ(in[0][0].recv_from, (std::vector<int>{1, 2, 3}));
  expect_balanced(in);
  expect_balanced(programs("pingpong", 4));
  // The most balanced factorisation.
  EXPECT_EQ(balanced_grid(16, 3), (std::vector<int>{4, 2, 2}));
  EXPECT_EQ(balanced_grid(12, 2), (std::vector<int>{4, 3}));
  EXPECT_EQ(balanced_grid(7, 2), (std::vector<int>{7, 1}));
}

// The engine with random message delays: no rank starts step i+1 before every
// message of its step i arrived, and every rank ends.
TEST(Motifs, NoRankStartsAnIterationBeforeItsNeighboursMessagesArrived) {
  struct Msg {
    Cycle at;
    int64_t tag;
    int node;
    bool operator>(const Msg& o) const { return at > o.at; }
  };
  std::priority_queue<Msg, std::vector<Msg>, std::greater<Msg>> wire;
  Rng rng(7);
  Cycle now = 0;
  MotifEngine engine([&](int, const MessageRequest& r) { wire.push({now + 1 + rng.below(50), r.tag, r.dst}); });
  engine.keep_log();
  MotifEngine::ClassSetup s;
  s.nodes = {10, 11, 12, 13, 14, 15, 16, 17};
  MotifParams p;
  p.name = "halo3d";
  p.ranks = 8;
  p.grid = {2, 2, 2};
  p.iterations = 4;
  p.compute = 5;
  s.programs = compile(motif_steps(p));
  engine.add(s);
  std::map<int, std::vector<Cycle>> arrivals;  // node -> arrival cycles, in order
  std::vector<std::pair<Cycle, int>> arrived;  // (cycle, node)
  for (now = 0; now < 10000 && !engine.all_finished(); ++now) {
    engine.generate(now);
    while (!wire.empty() && wire.top().at <= now) {
      arrived.push_back({now, wire.top().node});
      engine.arrived(wire.top().tag, now);
      wire.pop();
    }
  }
  ASSERT_TRUE(engine.all_finished());
  // Step i of rank r needs 6 messages; it starts step i+1 only after 6*(i+1) arrived at its node
  // (a neighbour can run at most one step ahead, so the counts per node are the ones of its steps).
  for (auto& e : engine.log()) {
    if (!e.started || e.step == 0) continue;
    const int node = s.nodes[e.rank];
    int before = 0;
    for (auto& [at, n] : arrived) before += n == node && at < e.at;
    EXPECT_GE(before, 6 * e.step) << "rank " << e.rank << " started step " << e.step << " at " << e.at;
  }
  EXPECT_EQ(arrived.size(), 8u * 6u * 4u);
}

// Zero load: a ping-pong's completion is the analytic sum of its message latencies, the one
// cycle a rank takes to notice an arrival, and the compute.
TEST(Motifs, PingPongAtZeroLoadTakesTheSumOfLatenciesAndCompute) {
  auto r = test::run({"traffic.motif=\"pingpong\"", "traffic.nodes=\"list:0,40\"", "traffic.iterations=5",
                      "traffic.compute=30", "traffic.message_size=2", "traffic.packet_size=4", "sim.measure=20000"});
  const auto& m = r["classes"]["default"]["motif"];
  ASSERT_TRUE(m["finished"].get<bool>()) << m;
  const Cycle lat = m["message_latency"]["max"].get<Cycle>();
  EXPECT_EQ(m["message_latency"]["p50"].get<Cycle>(), lat);  // nothing else in the network
  EXPECT_EQ(m["messages_arrived"].get<int>(), 10);
  EXPECT_EQ(m["completion_cycles"].get<Cycle>(), 5 * (2 * (lat + 1) + 30));
  // The run ends when the motif has: the window is the motif's time.
  EXPECT_EQ(r["cycles"].get<Cycle>(), 1000 + m["completion_cycles"].get<Cycle>() + 1);
}

TEST(Motifs, SameSeedSameResultAndRandomOrderMovesRanks) {
  const std::vector<std::string> sets = {"traffic.motif=\"halo3d\"", "traffic.nodes=\"range:0-26\"",
                                         "traffic.iterations=3", "traffic.rank_order=\"random\"",
                                         "traffic.message_size=4"};
  auto a = test::run(sets), b = test::run(sets);
  a.erase("perf"), b.erase("perf");
  EXPECT_EQ(a.dump(), b.dump());
  auto linear = test::run(
      {"traffic.motif=\"halo3d\"", "traffic.nodes=\"range:0-26\"", "traffic.iterations=3", "traffic.message_size=4"});
  EXPECT_NE(linear["classes"]["default"]["motif"]["completion_cycles"],
            a["classes"]["default"]["motif"]["completion_cycles"]);
}

// A motif beside synthetic traffic: each class keeps its own figures. The motif's ranks sit
// on the even nodes of the first 16 routers; the odd nodes and the rest send to node 63 at
// 0.2 flits/cycle each (56 senders: 11 times what the node takes), whose saturation tree
// fills the routers the ranks send through: the motif that took ~1,100 cycles alone does not
// finish in 5,000.
TEST(Motifs, MixWithSyntheticClassesAndAHotSpotStallsTheMotif) {
  std::string evens;
  for (int i = 0; i < 16; ++i) evens += (i ? "," : "") + std::to_string(2 * i);
  const std::string base = test::kSmallDragonfly;
  const std::vector<std::string> window = {"sim.measure=5000", "sim.drain_cap=1000"};
  const std::string motif = R"(
[[traffic.class]]
name = "app"
nodes = "list:)" + evens + R"("
motif = "halo2d"
iterations = 5
compute = 20
message_size = 4
packet_size = 4
)";
  const std::string hot = R"(
[[traffic.class]]
name = "hot"
nodes = "rest"
pattern = "hotspot"
hotspot_dest_list = "63"
hotspot_sources = 0
)";
  auto alone = test::run(window, (base + motif).c_str());
  auto light = test::run(window, (base + motif + hot + "load = 0.01\n").c_str());
  auto saturated = test::run(window, (base + motif + hot + "load = 0.2\n").c_str());
  const auto& a = alone["classes"]["app"]["motif"];
  ASSERT_TRUE(a["finished"].get<bool>());
  EXPECT_EQ(a["messages_arrived"].get<int>(), 16 * 4 * 5);
  EXPECT_LT(a["completion_cycles"].get<int>(), 2000);
  // Below saturation the hot spot costs the motif little; past it, the motif stalls.
  const auto& l = light["classes"]["app"]["motif"];
  ASSERT_TRUE(l["finished"].get<bool>());
  EXPECT_LT(l["completion_cycles"].get<double>(), 1.1 * a["completion_cycles"].get<double>());
  EXPECT_EQ(saturated["motifs_unfinished"], nlohmann::json::array({"app"}));
  EXPECT_GT(saturated["classes"]["hot"]["accepted_flits"].get<int64_t>(), 0);
  EXPECT_FALSE(saturated["classes"]["hot"].contains("motif"));
}

TEST(Motifs, AMotifThatDoesNotFinishIsNamed) {
  auto r = test::run(
      {"traffic.motif=\"alltoall\"", "traffic.nodes=\"range:0-31\"", "traffic.iterations=50", "sim.measure=500"});
  EXPECT_EQ(r["motifs_unfinished"], nlohmann::json::array({"default"}));
  const auto& m = r["classes"]["default"]["motif"];
  EXPECT_FALSE(m["finished"].get<bool>());
  EXPECT_GT(m["progress"].get<double>(), 0.0);
  EXPECT_LT(m["progress"].get<double>(), 1.0);
}

TEST(Motifs, BadSettingsNameTheirKey) {
  EXPECT_EQ(test::config_error_key({"traffic.motif=\"halo4d\""}), "traffic.motif");
  EXPECT_EQ(
      test::config_error_key({"traffic.motif=\"halo3d\"", "traffic.nodes=\"range:0-15\"", "traffic.grid=\"3x3x2\""}),
      "traffic.grid");
  EXPECT_EQ(test::config_error_key({"traffic.motif=\"halo2d\"", "traffic.nodes=\"range:0-15\"", "traffic.grid=\"4x\""}),
            "traffic.grid");
  EXPECT_EQ(test::config_error_key({"traffic.motif=\"pingpong\"", "traffic.nodes=\"list:3\""}), "traffic.nodes");
  EXPECT_EQ(test::config_error_key({"traffic.rank_order=\"snake\""}), "traffic.rank_order");
}

namespace {

std::string write_trace(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("ccsim_motifs_" + name + ".trace");
  std::ofstream(path) << text;
  return path.string();
}

}  // namespace

// A trace of a ping-pong runs exactly as the pingpong motif: the same messages, the same
// dependencies, the same completion time.
TEST(Motifs, APingPongTraceRunsAsThePingPongMotif) {
  std::string text = "# 5 ping-pongs of 128 bytes (8 flits of 16 bytes)\n";
  for (int i = 0; i < 5; ++i)
    text += "0 send 1 128\n1 recv 0\n1 compute 30\n1 send 0 128\n0 recv 1\n0 iteration\n1 iteration\n";
  const std::string trace = write_trace("pingpong", text);
  auto t = test::run(
      {"traffic.trace=\"" + trace + "\"", "traffic.nodes=\"list:0,40\"", "traffic.packet_size=4", "sim.measure=20000"});
  auto m = test::run({"traffic.motif=\"pingpong\"", "traffic.nodes=\"list:0,40\"", "traffic.iterations=5",
                      "traffic.compute=30", "traffic.message_size=2", "traffic.packet_size=4", "sim.measure=20000"});
  const auto& tm = t["classes"]["default"]["motif"];
  ASSERT_TRUE(tm["finished"].get<bool>()) << tm;
  EXPECT_EQ(tm["trace"], trace);
  EXPECT_EQ(tm["iterations"], 5);
  EXPECT_EQ(tm["completion_cycles"], m["classes"]["default"]["motif"]["completion_cycles"]);
  EXPECT_EQ(tm["message_latency"], m["classes"]["default"]["motif"]["message_latency"]);
}

TEST(Motifs, ABrokenTraceIsOneLineNamingTheFileAndWhy) {
  auto error = [](const std::string& text, std::vector<std::string> sets = {}) {
    sets.push_back("traffic.trace=\"" + write_trace("broken", text) + "\"");
    sets.push_back("traffic.nodes=\"range:0-7\"");
    try {
      test::run(sets);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error("0 send 1 64\n").find("traffic.trace: "), std::string::npos);
  EXPECT_NE(error("0 send 1 64\n").find("rank 0 sends to rank 1, which has no operation"), std::string::npos);
  EXPECT_NE(error("0 send 1 64\n1 compute 1\n").find("rank 0 sends 1 messages to rank 1, which receives 0"),
            std::string::npos);
  EXPECT_NE(error("1 recv 0\n0 compute 5\n").find("rank 1 receives 1 messages from rank 0, which sends it 0"),
            std::string::npos);
  EXPECT_NE(error("0 sned 1 64\n").find(":1: unknown operation \"sned\""), std::string::npos);
  EXPECT_NE(error("0 send 1\n").find(":1: expects \"RANK send DEST BYTES\""), std::string::npos);
  EXPECT_NE(error("0 compute fast\n1 compute 1\n").find("compute expects"), std::string::npos);
  EXPECT_NE(error("# nothing\n").find("holds no operation"), std::string::npos);
  EXPECT_NE(error("0 send 9 64\n9 recv 0\n").find("the trace has 10 ranks, the class 8 nodes"), std::string::npos);
  EXPECT_NE(error("0 send 1 64\n1 recv 0\n", {"traffic.motif=\"halo2d\""}).find("a motif or a trace, not both"),
            std::string::npos);
  EXPECT_EQ(test::config_error_key({"traffic.trace=\"/nonexistent.trace\"", "traffic.nodes=\"range:0-7\""}),
            "traffic.trace");
}
