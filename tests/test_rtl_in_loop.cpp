// RTL in the loop: the verilated blocks inside the full network ([hardware] <block> = "rtl")
// give byte-identical results to the C++ references, lock step runs clean, a wrong reference
// is caught, and a traced instance writes a VCD with its GTKWave save file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/sim_error.h"
#include "test_util.h"

using namespace ccsim;

namespace {

// 000's FB16 (4 routers of 4 nodes) with a 4-to-1 hotspot over UR (as test_congestion_cbcm),
// shortened, with a 2,000-cycle source epoch restarted by every THROTTLE (sources unthrottle).
const std::string kCbcmFb16String = std::string(test::kCbcmFb16Network) + R"(
cbcm_epoch_restart = "every_throttle"
cbcm_dest_epoch = 500
cbcm_src_epoch = 2000
[traffic]
load = 0.3
[sim]
warmup = 3000
measure = 4000
)" + std::string(test::kFb16HotspotClasses);
const char* kCbcmFb16 = kCbcmFb16String.c_str();

// The 72-node test dragonfly under ADV+1 with contention-counter routing (thresholds as in
// test_contention_routing).
std::vector<std::string> contention(const std::string& alg) {
  std::vector<std::string> v{"routing.algorithm=" + alg, "router.vcs=6",     "traffic.packet_size=8",
                             "traffic.pattern=adv",      "traffic.load=0.3", "routing.contention_threshold=3",
                             "sim.warmup=1000",          "sim.measure=2000"};
  if (alg == "ectn") v.push_back("routing.ectn_combined_threshold=5");
  return v;
}

// LHRP on the 72-node dragonfly: 8 senders to 2 nodes, threshold 8 flits (drops all the time).
const std::vector<std::string> kLhrp = {"congestion.protocol=lhrp", "congestion.lhrp_threshold=8",
                                        "traffic.pattern=hotspot",  "traffic.hotspot_sources=8",
                                        "traffic.hotspot_dests=2",  "traffic.load=0.2",
                                        "traffic.packet_size=4",    "traffic.message_size=2",
                                        "sim.warmup=1000",          "sim.measure=2000"};

// The result without what may differ between implementations (wall time, the choice itself).
std::string comparable(nlohmann::json j) {
  j.erase("perf");
  j.erase("hardware");
  for (auto it = j["config"].begin(); it != j["config"].end();)
    it = it.key().rfind("hardware.", 0) == 0 ? j["config"].erase(it) : std::next(it);
  return j.dump();
}

std::vector<std::string> with(std::vector<std::string> v, const std::vector<std::string>& more) {
  v.insert(v.end(), more.begin(), more.end());
  return v;
}

// Ref and RTL give the same bytes; lock step runs clean. Returns the RTL result.
nlohmann::json same_as_reference(const std::vector<std::string>& sets, const char* base, const std::string& block) {
  const auto ref = test::run(sets, base);
  const auto rtl = test::run(with(sets, {"hardware." + block + "=rtl"}), base);
  EXPECT_EQ(rtl["hardware"][block], "rtl");
  EXPECT_EQ(ref["hardware"][block], "ref");
  EXPECT_EQ(comparable(ref), comparable(rtl)) << block;
  nlohmann::json lock;
  EXPECT_NO_THROW(lock = test::run(with(sets, {"hardware." + block + "=rtl", "hardware.lockstep=true"}), base));
  EXPECT_EQ(comparable(ref), comparable(lock)) << block;
  return rtl;
}

// A reference perturbed on purpose (its test_mutation hook) is caught by lock step.
void lockstep_catches(const std::vector<std::string>& sets, const char* base, const std::string& block) {
  try {
    test::run(with(sets, {"hardware." + block + "=rtl", "hardware.lockstep=true", "hardware.mutate_reference=true"}),
              base);
    ADD_FAILURE() << block << ": the divergence was not caught";
  } catch (const SimError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("lockstep"), std::string::npos) << what;
    EXPECT_NE(what.find(block), std::string::npos) << what;
    EXPECT_NE(what.find("reference"), std::string::npos) << what;
  }
}

}  // namespace

TEST(RtlInLoop, CbcmContentionDegreeAndTokenThrottler) {
  const auto r = same_as_reference({}, kCbcmFb16, "contention_degree");
  EXPECT_GT(r["congestion"]["throttle_packets"].get<int64_t>(), 0);  // the blocks had work to do
  EXPECT_GT(r["congestion"]["marked_fraction"].get<double>(), 0.0);
  const auto t = same_as_reference({}, kCbcmFb16, "token_throttler");
  EXPECT_GT(t["congestion"]["throttled_injections"].get<int64_t>(), 0);
}

TEST(RtlInLoop, AllCbcmBlocksAtOnce) {
  // CBCM's default epochs: a new D_t keeps the source epoch (RTL KeepEpochOnUpdate = 1).
  const std::vector<std::string> defaults = {"congestion.cbcm_epoch_restart=first_throttle",
                                             "congestion.cbcm_src_epoch=10000"};
  const auto ref = test::run(defaults, kCbcmFb16);
  const auto rtl = test::run(with(defaults, {"hardware.all=rtl"}), kCbcmFb16);
  EXPECT_EQ(rtl["hardware"]["contention_degree"], "rtl");
  EXPECT_EQ(rtl["hardware"]["token_throttler"], "rtl");
  EXPECT_EQ(comparable(ref), comparable(rtl));
}

TEST(RtlInLoop, BaseAndEctnContentionCounters) {
  for (const char* alg : {"base", "ectn"}) {
    const auto r = same_as_reference(contention(alg), test::kSmallDragonfly, "contention_counters");
    EXPECT_GT(r["misrouted_fraction"].get<double>(), 0.3) << alg;  // the counters drove misrouting
  }
}

TEST(RtlInLoop, LhrpLastHopScheduler) {
  const auto r = same_as_reference(kLhrp, test::kSmallDragonfly, "lhrp_scheduler");
  EXPECT_GT(r["congestion"]["drops"].get<int64_t>(), 100);  // the scheduler dropped and reserved
}

TEST(RtlInLoop, LockstepCatchesAWrongReference) {
  lockstep_catches({}, kCbcmFb16, "contention_degree");
  lockstep_catches({}, kCbcmFb16, "token_throttler");
  lockstep_catches(contention("base"), test::kSmallDragonfly, "contention_counters");
  lockstep_catches(kLhrp, test::kSmallDragonfly, "lhrp_scheduler");
}

TEST(RtlInLoop, MissingModelIsOneClearError) {
  try {
    test::run({"routing.algorithm=base", "routing.contention_threshold=5", "hardware.contention_counters=rtl"});
    ADD_FAILURE() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "hardware.contention_counters");
    EXPECT_NE(std::string(e.what()).find("Threshold=5"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("rtl/network_models.cmake"), std::string::npos) << e.what();
  }
  EXPECT_THROW(test::run({"hardware.trace=switch:3"}), ConfigError);
}

TEST(RtlInLoop, TraceWritesVcdAndGtkw) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "ccsim_rtl_trace_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string prefix = (dir / "t").string();
  // Router 27 of the test dragonfly is the last-hop switch of a hotspot destination; it runs as
  // RTL (traced) while the others stay reference, and the results do not change.
  const auto ref = test::run(kLhrp);
  const auto traced = test::run(with(kLhrp, {"hardware.trace=router:27", "hardware.trace_start=1000",
                                             "hardware.trace_cycles=200", "hardware.trace_prefix=" + prefix}));
  EXPECT_EQ(comparable(ref), comparable(traced));
  EXPECT_EQ(traced["hardware"]["trace"], "router:27");
  const fs::path vcd = prefix + "_router27_lhrp_scheduler.vcd", gtkw = prefix + "_router27_lhrp_scheduler.gtkw";
  ASSERT_TRUE(fs::exists(vcd));
  ASSERT_TRUE(fs::exists(gtkw));
  // Timestamps: 10 units per cycle, all inside the window [1000, 1200), the switch busy in most.
  std::ifstream in(vcd);
  std::string line;
  int stamps = 0;
  bool vars = false;
  while (std::getline(in, line)) {
    vars = vars || line.find("grant_time_o") != std::string::npos;
    if (line.empty() || line[0] != '#') continue;
    const long t = std::stol(line.substr(1));
    EXPECT_GE(t, 10000);
    EXPECT_LT(t, 12000);
    ++stamps;
  }
  EXPECT_TRUE(vars);
  EXPECT_GT(stamps, 100);
  fs::remove_all(dir);
}
