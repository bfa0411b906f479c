// Sources as 004 has them: every node "tries to generate" a packet at a fixed
// interval (traffic.injection = "periodic"), and a node whose packet cannot
// enter the network refuses the next one instead of queueing it without bound
// (traffic.source_queue).
#include <gtest/gtest.h>

#include "test_util.h"

namespace ccsim {
namespace {

const std::string kTorus8Text = test::network_of_004(8) + R"(
[routing]
algorithm = "duato"
[traffic]
pattern = "uniform"
packet_size = 16
injection = "periodic"
[sim]
warmup = 2000
measure = 8000
drain_cap = 1
)";
const char* kTorus8 = kTorus8Text.c_str();

TEST(BoundedSources, PeriodicSourcesOfferExactlyTheLoad) {
  // 0.2 flits/node/cycle of 16-flit packets: one packet every 80 cycles, 100 per node in the window.
  auto r = test::run({"traffic.load=0.2"}, kTorus8);
  EXPECT_NEAR(r["generated_load"].get<double>(), 0.2, 16.0 / 8000);  // at most one packet per node off
  EXPECT_FALSE(r.contains("refused_load"));                          // no bound, no refusals
}

TEST(BoundedSources, AFullSourceRefusesWhatItCannotQueue) {
  // 1.6 flits/node/cycle (004 Fig. 4: a packet every 10 cycles), far past what the network carries.
  auto r = test::run({"traffic.load=1.6", "traffic.source_queue=1"}, kTorus8);
  const double generated = r["generated_load"].get<double>(), refused = r["refused_load"].get<double>();
  EXPECT_GT(refused, 1.0);
  EXPECT_NEAR(generated + refused, 1.6, 16.0 / 8000);  // every attempt is either made or refused
  EXPECT_TRUE(r["saturated"].get<bool>());             // the network carries less than is offered
  EXPECT_GT(r["accepted_throughput"].get<double>(), 0.1);
}

TEST(BoundedSources, ABoundKeepsTheSourceWaitShortPastSaturation) {
  auto wait = [](const char* queue) {
    auto r = test::run({"traffic.load=1.0", std::string("traffic.source_queue=") + queue}, kTorus8);
    return r["avg_packet_latency"].get<double>() - r["avg_network_latency"].get<double>();
  };
  const double unbounded = wait("0"), one = wait("1");
  EXPECT_GT(unbounded, 10 * one) << "unbounded " << unbounded << ", one packet " << one;
}

TEST(BoundedSources, LoadsASourceCannotOfferAreConfigErrors) {
  using test::config_error_key;
  EXPECT_EQ(config_error_key({"traffic.load=1.5"}, kTorus8), "traffic.load");  // more than the channel, no bound
  EXPECT_EQ(config_error_key({"traffic.load=17", "traffic.source_queue=1"}, kTorus8),
            "traffic.load");  // over one message per cycle
  EXPECT_EQ(config_error_key({"traffic.source_queue=1", "traffic.message_size=2"}, kTorus8),
            "traffic.source_queue");  // a message never fits
}

TEST(BoundedSources, TheSourceQueueIsOneForAllClasses) {
  std::string base = std::string(kTorus8) + R"(
[[traffic.class]]
name = "a"
nodes = "range:0-31"
source_queue = 2
[[traffic.class]]
name = "b"
nodes = "rest"
)";
  EXPECT_EQ(test::config_error_key({"traffic.source_queue=1"}, base.c_str()), "traffic.class[0].source_queue");
}

}  // namespace
}  // namespace ccsim
