// traffic.source_order: an interface takes turns per destination (one packet
// each) or per message (000 III-B's SRP source "can only transmit one message
// at any given time"). Read from the packet trace: the order in which node 0
// injects its data packets.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "test_util.h"

namespace ccsim {
namespace {

// Destinations of node 0's data packets in the order they were injected.
std::vector<int> injected_destinations(const std::string& order) {
  const std::string path = testing::TempDir() + "ccsim_source_order_" + order + ".json";
  test::run({"traffic.load=0.9", "traffic.packet_size=4", "traffic.message_size=4", "sim.warmup=500",
             "sim.measure=1500", "sim.trace=\"packets\"", "sim.trace_file=\"" + path + "\"",
             "sim.trace_nodes=\"list:0\"", "traffic.source_order=\"" + order + "\""});
  std::ifstream f(path.substr(0, path.size() - 5) + ".csv");
  std::string line;
  std::getline(f, line);                          // packet,kind,src,dst,class,size,answers,event,cycle,...
  std::vector<std::pair<int64_t, int>> injected;  // (cycle, dst)
  while (std::getline(f, line)) {
    std::vector<std::string> c;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) c.push_back(cell);
    if (c.size() > 8 && c[2] == "0" && c[7] == "injected") injected.push_back({std::stoll(c[8]), std::stoi(c[3])});
  }
  std::stable_sort(injected.begin(), injected.end());
  std::vector<int> dst;
  for (auto& [cycle, d] : injected) dst.push_back(d);
  return dst;
}

// Lengths of the runs of equal destinations, the last (perhaps cut by the end of the run) left out.
std::vector<int> runs(const std::vector<int>& dst) {
  std::vector<int> out;
  for (size_t i = 0, j = 0; i < dst.size(); i = j) {
    for (j = i; j < dst.size() && dst[j] == dst[i];) ++j;
    if (j < dst.size()) out.push_back(static_cast<int>(j - i));
  }
  return out;
}

TEST(SourceOrder, OneMessageAtATimeSendsWholeMessages) {
  const auto lengths = runs(injected_destinations("messages"));
  ASSERT_GT(lengths.size(), 20u);
  for (int n : lengths) EXPECT_EQ(n % 4, 0) << "a run of " << n << " packets to one destination";
}

TEST(SourceOrder, DestinationsTakeTurnsPacketByPacket) {
  // The source queue holds several destinations at 90% load: their packets interleave.
  const auto lengths = runs(injected_destinations("destinations"));
  ASSERT_GT(lengths.size(), 20u);
  EXPECT_GT(std::count_if(lengths.begin(), lengths.end(), [](int n) { return n % 4 != 0; }), 10);
}

TEST(SourceOrder, BelongsToTheInterface) {
  const std::string classes = std::string(test::kSmallDragonfly) + R"(
[[traffic.class]]
name = "a"
nodes = "range:0-35"
pattern = "uniform"
[[traffic.class]]
name = "b"
nodes = "rest"
pattern = "uniform"
source_order = "messages"
)";
  EXPECT_EQ(test::config_error_key({}, classes.c_str()), "traffic.class[1].source_order");
}

}  // namespace
}  // namespace ccsim
