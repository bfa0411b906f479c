// The packet ledger's end-of-run accounting: every packet delivered once or in
// a known place; a dropped one answered or held for a resend.
#include <gtest/gtest.h>

#include "core/packet_ledger.h"
#include "core/sim_error.h"

using namespace ccsim;

namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const SimError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(PacketLedger, AccountsForEveryPacket) {
  PacketLedger ledger;
  MessageRequest req;
  req.dst = 3, req.packets = 2, req.packet_size = 4;
  const PacketLedger::MessageRef msg = ledger.open_message(req, true, 10);
  Packet* a = ledger.new_data(msg, 1, req, true, 10);
  Packet* b = ledger.new_data(msg, 1, req, true, 10);
  EXPECT_EQ(ledger.created(), 2);
  EXPECT_EQ(ledger.measured_outstanding(), 2);

  PacketPlaces places = {{0, "on a link"}, {1, "queued at NIC 1"}};
  const auto none = [](uint64_t) { return false; };
  EXPECT_EQ(error_of([&] { ledger.check(places, {}, none); }), "");

  // Delivered: its message is complete after both packets.
  ledger.delivered(*a, 3, 20);
  PacketLedger::Message m;
  EXPECT_FALSE(ledger.completes_message(*a, m));
  ledger.release(a);
  places.erase(0);
  EXPECT_EQ(error_of([&] { ledger.check(places, {}, none); }), "");
  EXPECT_NE(error_of([&] { ledger.delivered(*b, 2, 21); }).find("delivered to node 2"), std::string::npos);

  // Packet b is nowhere: lost, named with its route.
  places.erase(1);
  const std::string lost = error_of([&] { ledger.check(places, {}, none); });
  EXPECT_NE(lost.find("packet 1 (data, node 1 -> node 3"), std::string::npos) << lost;
  EXPECT_NE(lost.find("lost"), std::string::npos) << lost;

  // Dropped and held: fine while a control packet about it travels or the
  // protocol holds it, an error otherwise.
  ledger.hold(b, 5, 30);
  places[1] = "held after its drop at router 5 in cycle 30";
  EXPECT_EQ(error_of([&] { ledger.check(places, {1}, none); }), "");
  EXPECT_EQ(error_of([&] { ledger.check(places, {}, [](uint64_t id) { return id == 1; }); }), "");
  const std::string unanswered = error_of([&] { ledger.check(places, {}, none); });
  EXPECT_NE(unanswered.find("dropped at router 5 in cycle 30"), std::string::npos) << unanswered;

  // Taken back and delivered: the message completes.
  EXPECT_EQ(ledger.reclaim(1), b);
  ledger.delivered(*b, 3, 40);
  EXPECT_TRUE(ledger.completes_message(*b, m));
  EXPECT_EQ(m.created, 10);
  EXPECT_EQ(ledger.measured_outstanding(), 0);
  EXPECT_NE(error_of([&] { ledger.delivered(*b, 3, 41); }).find("delivered twice"), std::string::npos);
}

TEST(PacketLedger, AOnePacketMessageCompletesFromItsPacketAlone) {
  PacketLedger ledger;
  MessageRequest one;
  one.dst = 3, one.packets = 1, one.packet_size = 4, one.traffic_class = 2;
  const PacketLedger::MessageRef a = ledger.open_message(one, true, 10);
  EXPECT_EQ(a.slot, PacketLedger::kNoRecord);
  MessageRequest tagged = one;
  tagged.tag = 7;  // a motif waits for it: recorded
  const PacketLedger::MessageRef b = ledger.open_message(tagged, false, 11);
  EXPECT_NE(b.slot, PacketLedger::kNoRecord);
  EXPECT_EQ(b.id, a.id + 1);

  Packet* p = ledger.new_data(a, 1, one, true, 10);
  EXPECT_EQ(p->message_id, a.id);
  ledger.delivered(*p, 3, 30);
  PacketLedger::Message m;
  ASSERT_TRUE(ledger.completes_message(*p, m));
  EXPECT_EQ(m.id, a.id);
  EXPECT_EQ(m.traffic_class, 2);
  EXPECT_TRUE(m.measured);
  EXPECT_EQ(m.created, 10);
  EXPECT_EQ(m.tag, -1);
  EXPECT_EQ(ledger.measured_outstanding(), 0);

  Packet* q = ledger.new_data(b, 1, tagged, false, 11);
  ledger.delivered(*q, 3, 31);
  ASSERT_TRUE(ledger.completes_message(*q, m));
  EXPECT_EQ(m.tag, 7);
  EXPECT_EQ(m.created, 11);
}
