// A congestion-control protocol tested without a network: a fake
// ProtocolContext, switch and NICs record what the protocol does
// (congestion/protocol_context.h is all a protocol sees).
#include <gtest/gtest.h>

#include <map>
#include <memory>

#include "congestion/srp.h"
#include "registry.h"
#include "test_util.h"

using namespace ccsim;

namespace {

struct FakeNic : NicView {
  int node = 0;
  std::vector<Packet*> sent;
  int id() const override { return node; }
  int credits(int) const override { return 100; }
  void send_control(Packet* p, Cycle) override { sent.push_back(p); }
};

struct FakeSwitch : SwitchView {
  int router = 0;
  Rng random{1};
  int id() const override { return router; }
  int radix() const override { return 4; }
  int num_vcs() const override { return 4; }
  PortKind port_kind(int) const override { return PortKind::Local; }
  int input_depth(int) const override { return 32; }
  int input_flits(int, int) const override { return 0; }
  int input_queue_flits(int) const override { return 0; }
  int output_queue_flits(int) const override { return 0; }
  bool output_vc_free(int, int) override { return true; }
  bool output_vc_held(int, int) const override { return false; }
  Rng& rng() override { return random; }
  void visit_requests(Cycle, RequestVisitor) const override {}
};

class FakeNetwork : public ProtocolContext {
 public:
  explicit FakeNetwork(const Config& cfg)
      : cfg_(cfg), settings_(NetworkSettings::from_config(cfg)), topo_(find_topology("dragonfly").make(cfg)) {
    nics_.resize(topo_->num_nodes());
    for (int n = 0; n < topo_->num_nodes(); ++n) nics_[n].node = n;
  }
  const Config& config() const override { return cfg_; }
  const NetworkSettings& settings() const override { return settings_; }
  const Topology& topology() const override { return *topo_; }
  const RoutingFunction& routing() const override { throw std::logic_error("not used"); }
  const hw::Selection& hardware() const override { return hardware_; }
  uint64_t seed() const override { return 1; }
  Cycle now() const override { return 0; }
  SwitchView& switch_at(int) override { return switch_; }
  FakeNic& nic(int n) override { return nics_[n]; }
  FakeNic& switch_nic(int r) override { return nics_[r * 2]; }
  void wake(Component*, Cycle) override {}
  Packet* new_control(PacketKind kind, int src, int dst, int vc_class, const Packet& ref, Cycle) override {
    packets_.push_back(std::make_unique<Packet>());
    Packet* p = packets_.back().get();
    *p = Packet{};
    p->kind = kind, p->src = src, p->dst = dst, p->size = 1, p->ref = ref.id, p->message_id = ref.message_id;
    p->vc_class = static_cast<uint8_t>(vc_class);
    return p;
  }
  Packet* reclaim(uint64_t id) override {
    Packet* p = held_.at(id);
    held_.erase(id);
    return p;
  }
  const Packet& held(uint64_t id) const override { return *held_.at(id); }
  void resend(int node, Packet* p, Cycle at, Cycle) override { resent.push_back({node, p->id, at}); }

  void hold(Packet* p) { held_[p->id] = p; }
  struct Resend {
    int node;
    uint64_t id;
    Cycle at;
  };
  std::vector<Resend> resent;
  FakeSwitch switch_;

 private:
  Config cfg_;
  NetworkSettings settings_;
  std::unique_ptr<Topology> topo_;
  hw::Selection hardware_;
  std::vector<FakeNic> nics_;
  std::map<uint64_t, Packet*> held_;
  std::vector<std::unique_ptr<Packet>> packets_;
};

}  // namespace

// SMSRP (003 3.1): a message goes speculatively; the NACK of a drop starts the
// reservation; the grant resends the dropped packet at the granted time.
TEST(ProtocolUnit, SmsrpReservesOnANackAndResendsAtTheGrant) {
  Config cfg = test::config({"congestion.protocol=smsrp"});
  FakeNetwork net(cfg);
  Srp smsrp(cfg, SrpParams::from_config(cfg, true));
  smsrp.attach(net);

  Packet data;
  data.id = 7, data.message_id = 3, data.src = 0, data.dst = 5, data.size = 4, data.message_packets = 1;
  FakeNic& src = net.nic(0);
  ASSERT_TRUE(smsrp.may_inject(src, data, 0));
  EXPECT_EQ(data.vc_class, SpeculativeProtocol::kSpeculativeClass);

  // A switch drops it: a NACK leaves from the switch's NIC.
  net.switch_.router = 1;
  EXPECT_FALSE(smsrp.holds_for_resend(7));
  net.hold(&data);
  smsrp.on_drop(net.switch_, data, 10);
  ASSERT_EQ(net.switch_nic(1).sent.size(), 1u);
  Packet* nack = net.switch_nic(1).sent[0];
  EXPECT_EQ(nack->kind, kNackPacket);
  EXPECT_EQ(nack->ref, 7u);
  EXPECT_EQ(nack->dst, 0);

  // The NACK reaches the source: a reservation for the message's 4 flits.
  smsrp.on_control(src, *nack, 20);
  ASSERT_EQ(src.sent.size(), 1u);
  EXPECT_EQ(src.sent[0]->kind, kReservationPacket);
  EXPECT_EQ(src.sent[0]->cc_value, 4);
  EXPECT_TRUE(smsrp.holds_for_resend(7));
  EXPECT_TRUE(net.resent.empty());

  // The grant for cycle 100: the dropped packet goes again then, guaranteed.
  Packet* grant = net.new_control(kGrantPacket, 5, 0, SpeculativeProtocol::kGrantClass, *src.sent[0], 30);
  grant->cc_value = 100;
  smsrp.on_control(src, *grant, 30);
  ASSERT_EQ(net.resent.size(), 1u);
  EXPECT_EQ(net.resent[0].id, 7u);
  EXPECT_EQ(net.resent[0].at, 100);
  EXPECT_EQ(data.vc_class, SpeculativeProtocol::kDataClass);
  EXPECT_FALSE(smsrp.holds_for_resend(7));
}
