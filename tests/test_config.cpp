// Bad input gets one clear line naming the key and what is allowed.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/params.h"
#include "test_util.h"

using namespace ccsim;

namespace {

using test::config_error;

}  // namespace

TEST(Config, UnknownKeyNamesKeyAndAllowedKeys) {
  const std::string e = config_error({"router.vc=3"});
  EXPECT_NE(e.find("router.vc"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown key"), std::string::npos) << e;
  EXPECT_NE(e.find("vcs"), std::string::npos) << "should list allowed keys: " << e;
  EXPECT_EQ(e.find('\n'), std::string::npos) << "one line";
}

TEST(Config, UnknownSection) {
  const std::string e = config_error({"routers.vcs=3"});
  EXPECT_NE(e.find("unknown section [routers]"), std::string::npos) << e;
}

TEST(Config, WrongType) {
  const std::string e = config_error({"topology.p=\"four\""});
  EXPECT_NE(e.find("topology.p"), std::string::npos) << e;
  EXPECT_NE(e.find("must be an integer"), std::string::npos) << e;
}

TEST(Config, LoadAboveOneNeedsABoundedSource) {
  const std::string e = config_error({"traffic.load=1.5"});
  EXPECT_NE(e.find("traffic.load"), std::string::npos) << e;
  EXPECT_NE(e.find("traffic.source_queue"), std::string::npos) << e;
}

TEST(Config, TooManyGroups) {
  const std::string e = config_error({"topology.groups=10"});
  EXPECT_NE(e.find("topology.groups"), std::string::npos) << e;
  EXPECT_NE(e.find("a*h+1 = 9"), std::string::npos) << e;
}

TEST(Config, ZeroVcs) {
  const std::string e = config_error({"router.vcs=0"});
  EXPECT_NE(e.find("router.vcs"), std::string::npos) << e;
}

TEST(Config, TooFewVcsForRouting) {
  const std::string e = config_error({"router.vcs=2", "routing.algorithm=val"});
  EXPECT_NE(e.find("router.vcs"), std::string::npos) << e;
  EXPECT_NE(e.find("at least 3"), std::string::npos) << e;
}

TEST(Config, UnknownRoutingListsAllowed) {
  const std::string e = config_error({"routing.algorithm=ugal"});
  EXPECT_NE(e.find("routing.algorithm"), std::string::npos) << e;
  EXPECT_NE(e.find("ugal_l"), std::string::npos) << e;
}

TEST(Config, UnknownChoice) {
  const std::string e = config_error({"router.switching=store"});
  EXPECT_NE(e.find("allowed: vct, wormhole"), std::string::npos) << e;
}

TEST(Config, KeyOfAnotherPatternIsUnknown) {
  // traffic.offset belongs to "adv", not to "uniform".
  const std::string e = config_error({"traffic.offset=2"});
  EXPECT_NE(e.find("traffic.offset"), std::string::npos) << e;
}

TEST(Config, LatencyInNanoseconds) {
  Config c = test::config({"sim.clock_ghz=2", "links.global_latency=\"1us\"", "links.local_latency=\"25ns\""});
  EXPECT_EQ(c.get_int("links.global_latency"), 2000);
  EXPECT_EQ(c.get_int("links.local_latency"), 50);
}

TEST(Config, DefaultsFilledAndPrinted) {
  Config c = test::config({});
  EXPECT_EQ(c.get_string("routing.algorithm"), "min");
  const std::string toml = config_to_toml(c);
  EXPECT_NE(toml.find("[router]"), std::string::npos);
  EXPECT_NE(toml.find("latency = 3"), std::string::npos);
  // The printed config loads back to the same values.
  Config back = load_config_string(toml, {});
  EXPECT_EQ(back.values(), c.values());
}

// Every shipped experiment loads and builds its network (a short run).
TEST(Config, EveryExperimentConfigRuns) {
  // Their file paths (traffic.trace) are relative to the repository, where they are run from.
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(CCSIM_SOURCE_DIR);
  int found = 0;
  for (auto& entry : std::filesystem::directory_iterator(std::string(CCSIM_SOURCE_DIR) + "/experiments")) {
    if (entry.path().extension() != ".toml") continue;
    ++found;
    SCOPED_TRACE(entry.path().string());
    const Config cfg = load_config(
        entry.path().string(),
        {parse_override("sim.warmup=0"), parse_override("sim.measure=50"), parse_override("sim.drain_cap=200")});
    EXPECT_NO_THROW(simulate(cfg));
  }
  std::filesystem::current_path(cwd);
  EXPECT_GE(found, 7);
}
