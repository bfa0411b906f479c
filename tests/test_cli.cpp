// The ccsim program as users and scripts call it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace {

struct Output {
  int status;
  std::string out;
};

Output sh(const std::string& cmd) {
  Output o{0, ""};
  FILE* f = popen((cmd + " 2>&1").c_str(), "r");
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) o.out.append(buf, n);
  const int st = pclose(f);
  o.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return o;
}

const std::string kBin = CCSIM_BINARY;
const std::string kDemo = std::string(CCSIM_SOURCE_DIR) + "/experiments/demo.toml";
const std::string kShort = " -s sim.warmup=200 -s sim.measure=1000";

}  // namespace

TEST(Cli, RunWritesResultJson) {
  auto o = sh(kBin + " run " + kDemo + kShort);
  ASSERT_EQ(o.status, 0) << o.out;
  auto j = nlohmann::json::parse(o.out);
  for (const char* k :
       {"config", "seed", "offered_load", "accepted_throughput", "avg_packet_latency", "avg_network_latency",
        "avg_message_latency", "latency_p50", "latency_p99", "avg_hops", "misrouted_fraction", "node_accepted_min",
        "node_accepted_max", "saturated", "packets_created", "packets_delivered", "deadlock", "perf"})
    EXPECT_TRUE(j.contains(k)) << k;
  for (const char* k : {"wall_seconds", "cpu_seconds", "cycles_per_second", "flit_hops_per_second", "peak_rss_mb"})
    EXPECT_TRUE(j["perf"].contains(k)) << k;
}

// Huge pages (sim/huge_pages.h) move memory, never results.
TEST(Cli, HugePagesChangeNoResult) {
  auto with = sh(kBin + " run " + kDemo + kShort),
       without = sh("CCSIM_HUGE_PAGES=0 " + kBin + " run " + kDemo + kShort);
  ASSERT_EQ(with.status, 0) << with.out;
  ASSERT_EQ(without.status, 0) << without.out;
  auto a = nlohmann::json::parse(with.out), b = nlohmann::json::parse(without.out);
  a.erase("perf");
  b.erase("perf");
  EXPECT_EQ(a, b);
}

TEST(Cli, PlotDrawsChannelHeatmaps) {
  const auto dir = std::filesystem::temp_directory_path() / "ccsim_plot_channels";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string run = (dir / "run.json").string();
  auto r = sh(kBin + " run " + kDemo + kShort + " -s sim.channel_stats=true -o " + run);
  ASSERT_EQ(r.status, 0) << r.out;
  auto p = sh(kBin + " plot " + run);
  ASSERT_EQ(p.status, 0) << p.out;
  EXPECT_TRUE(std::filesystem::exists(dir / "run_channels.png")) << p.out;
  std::ifstream csv(dir / "run_channels.csv");
  std::string header, line;
  std::getline(csv, header);
  EXPECT_EQ(header, "from_kind,from_id,port,to_kind,to_id,utilization");
  int lines = 0;
  while (std::getline(csv, line)) ++lines;
  EXPECT_GT(lines, 72);  // the demo network's router ports and 72 injection channels
  std::filesystem::remove_all(dir);
}

TEST(Cli, SystemCKernelGivesTheSameResultAsDirect) {
  auto a = sh(kBin + " run " + kDemo + kShort + " -s sim.kernel=direct");
  auto b = sh(kBin + " run " + kDemo + kShort + " -s sim.kernel=systemc");
  ASSERT_EQ(a.status, 0) << a.out;
  ASSERT_EQ(b.status, 0) << b.out;
  auto ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
  ja.erase("perf"), jb.erase("perf");
  ja["config"].erase("sim.kernel"), jb["config"].erase("sim.kernel");
  EXPECT_EQ(ja.dump(), jb.dump());
}

TEST(Cli, ConfigErrorIsOneLineAndNonZero) {
  auto o = sh(kBin + " run " + kDemo + " -s traffic.load=-1");
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.out, "error: traffic.load: must be >= 0, got -1\n");
}

TEST(Cli, PrintConfigShowsEveryKey) {
  auto o = sh(kBin + " run " + kDemo + " --print-config");
  ASSERT_EQ(o.status, 0);
  for (const char* s : {"[topology]", "[router]", "[links]", "[routing]", "[traffic]", "[congestion]", "[sim]",
                        "algorithm = \"ugal_l\"", "ugal_threshold = 30"})
    EXPECT_NE(o.out.find(s), std::string::npos) << s;
}

TEST(Cli, ListNamesEveryComponent) {
  auto o = sh(kBin + " list");
  ASSERT_EQ(o.status, 0);
  for (const char* s : {"dragonfly", "min", "val", "ugal_l", "ugal_g", "par", "uniform", "adv", "permutation",
                        "hotspot", "none", "topology.p", "traffic.hotspot_sources"})
    EXPECT_NE(o.out.find(s), std::string::npos) << s;
}

TEST(Cli, SweepWritesPointsAndSummary) {
  const auto dir = std::filesystem::temp_directory_path() / "ccsim_sweep_test";
  std::filesystem::remove_all(dir);
  auto o = sh(kBin + " sweep " + kDemo + " --param traffic.load=0.1,0.2 -j 2 -o " + dir.string() + kShort);
  ASSERT_EQ(o.status, 0) << o.out;
  EXPECT_TRUE(std::filesystem::exists(dir / "load-0.1.json"));
  EXPECT_TRUE(std::filesystem::exists(dir / "load-0.2.json"));
  std::ifstream csv(dir / "summary.csv");
  std::string header, line;
  std::getline(csv, header);
  int rows = 0;
  while (std::getline(csv, line)) ++rows;
  EXPECT_EQ(rows, 2);
  EXPECT_NE(header.find("accepted_throughput"), std::string::npos);
}

TEST(Cli, ConfigReferenceIsUpToDate) {
  auto o = sh(kBin + " list --markdown");
  ASSERT_EQ(o.status, 0);
  std::ifstream f(std::string(CCSIM_SOURCE_DIR) + "/docs/config.md");
  std::string doc((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EXPECT_EQ(doc, o.out) << "regenerate with: build/ccsim list --markdown > docs/config.md";
}

TEST(Cli, SeedsAverageIndependentRuns) {
  auto one = sh(kBin + " run " + kDemo + kShort + " -s sim.seed=5");
  auto three = sh(kBin + " run " + kDemo + kShort + " -s sim.seed=5 --seeds 3");
  ASSERT_EQ(three.status, 0) << three.out;
  auto a = nlohmann::json::parse(one.out), m = nlohmann::json::parse(three.out);
  EXPECT_EQ(m["seeds"], nlohmann::json::parse("[5, 6, 7]"));
  EXPECT_FALSE(m.contains("seed"));
  EXPECT_NE(m["avg_packet_latency"], a["avg_packet_latency"]);
  EXPECT_GT(m["stddev"]["avg_packet_latency"].get<double>(), 0.0);
  // The mean of 3 runs lies within their spread.
  EXPECT_LT(std::abs(m["avg_packet_latency"].get<double>() - a["avg_packet_latency"].get<double>()),
            4 * m["stddev"]["avg_packet_latency"].get<double>());
}

// --print-config writes every section, [hardware] included: the printed config
// run again gives the same results (it once dropped [hardware], so the re-run
// silently ran the C++ references instead of the RTL).
TEST(Cli, PrintedConfigRunsToTheSameResults) {
  const std::string gate = std::string(CCSIM_SOURCE_DIR) + "/tests/results_gate/";
  const std::string hw = CCSIM_RTL ? "rtl" : "ref";
  for (const std::string& cfg : {gate + "rtl_cbcm_flatfly.toml -s congestion.cbcm_detection=early",
                                 gate + "rtl_lhrp_fabric.toml -s hardware.all=" + hw}) {
    const auto dir = std::filesystem::temp_directory_path() / "ccsim_print_config_test";
    std::filesystem::create_directories(dir);
    const std::string printed = (dir / "printed.toml").string();
    auto p = sh(kBin + " run " + cfg + " -s hardware.all=" + hw + " --print-config > " + printed);
    ASSERT_EQ(p.status, 0) << p.out;
    auto a = sh(kBin + " run " + cfg + " -s hardware.all=" + hw);
    auto b = sh(kBin + " run " + printed);
    ASSERT_EQ(a.status, 0) << a.out;
    ASSERT_EQ(b.status, 0) << b.out;
    auto ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
    ja.erase("perf"), jb.erase("perf");
    EXPECT_EQ(ja["hardware"], jb["hardware"]) << cfg;
    EXPECT_EQ(ja.dump(), jb.dump()) << cfg;
  }
}
