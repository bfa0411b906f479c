// sim.series_by: a time series by the packets' creation (FOGSim's transient
// records, 002 Figs. 7-9) or by their delivery.
#include <gtest/gtest.h>

#include <string>

#include "test_util.h"

using namespace ccsim;

namespace {

// Uniform traffic that stops at cycle 2000, windows of 250 cycles.
nlohmann::json run_stopping(const char* by) {
  const std::string toml = std::string(test::kSmallDragonfly) + R"(
[traffic]
load = 0.3
stop = 2000
)";
  return test::run({"sim.series_window=250", std::string("sim.series_by=\"") + by + "\""}, toml.c_str());
}

int64_t sum(const nlohmann::json& v) {
  int64_t s = 0;
  for (auto& x : v) s += x.get<int64_t>();
  return s;
}

TEST(SeriesBy, CreationPutsEveryPacketInTheWindowItWasCreatedIn) {
  const auto created = run_stopping("creation")["series"]["overall"];
  const auto delivered = run_stopping("delivery")["series"]["overall"];
  // Window 8 starts at the stop: packets created before it are still arriving then.
  EXPECT_EQ(created["packets"][8], 0);
  EXPECT_GT(delivered["packets"][8].get<int64_t>(), 0);
  EXPECT_GT(created["packets"][7].get<int64_t>(), 0);
  // The same packets, binned differently; throughput is by delivery in both.
  EXPECT_EQ(sum(created["packets"]), sum(delivered["packets"]));
  EXPECT_EQ(created["accepted_throughput"], delivered["accepted_throughput"]);
}

TEST(SeriesBy, NeedsATimeSeries) {
  EXPECT_EQ(test::config_error_key({"sim.series_by=\"creation\""}), "sim.series_by");
  EXPECT_EQ(test::config_error_key({"sim.series_window=100", "sim.series_by=\"arrival\""}), "sim.series_by");
}

}  // namespace
