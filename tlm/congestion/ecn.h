// congestion.protocol = "ecn": InfiniBand-style explicit congestion
// notification (003 section 2.2 and Table 1; 000 section III-A).
//   Switch: a data packet whose head leaves an input VC buffer filled to at
//     least `threshold` of its capacity is marked (FECN).
//   Destination: the ACK of a marked packet carries BECN (with acks = false
//     only marked packets are answered, by a BECN-carrying ACK).
//   Source, per destination: a BECN raises the inter-packet delay (IPD) by
//     `increment` up to `max`; every `timer` cycles it falls by `decrement`.
//     A packet to that destination starts IPD cycles after the previous one's
//     tail left.
// Presets: "lhrp" (003 Table 1: 50%, +24, -24 every 96, max 3048) and "cbcm"
// (000 V-A: 90%, +400, -50 every 1000, max 1500); any value set overrides.
#pragma once
#include <unordered_map>
#include <vector>

#include "congestion/congestion_control.h"
#include "core/params.h"

namespace ccsim {

struct EcnParams {
  double threshold = 0.5;
  int increment = 24, decrement = 24, timer = 96, max = 3048;
  bool acks = true;
  static EcnParams from_config(const Config& c);
};

class Ecn : public CongestionControl {
 public:
  explicit Ecn(const EcnParams& p) : p_(p) {}
  void attach(ProtocolContext& net) override;
  std::vector<VcClass> vc_classes() const override { return {{"data", 0}, {"ack", 2}}; }
  bool may_inject(NicView& nic, Packet& p, Cycle now) override;
  void on_inject(NicView& nic, Packet& p, Cycle now) override;
  void on_switch_forward(SwitchView& r, Packet& p, int in_port, int in_vc, int out_port, Cycle now) override;
  void on_deliver(NicView& nic, Packet& p, Cycle now) override;
  void on_control(NicView& nic, Packet& p, Cycle now) override;
  bool has_switch_hook() const override { return true; }
  nlohmann::json stats() const override;

  // The inter-packet delay of node `src` towards `dst` at `now` (tests).
  int ipd(int src, int dst, Cycle now);

  static constexpr uint32_t kMarked = 1;  // FECN on data, BECN on the ACK

 private:
  struct Flow {
    int ipd = 0;
    Cycle last_decrement = 0;
    Cycle next_start = 0;  // earliest start of the next packet
  };
  void decay(Flow& f, Cycle now) const;

  EcnParams p_;
  std::vector<std::unordered_map<int, Flow>> flows_;  // per source node, by destination
  int64_t marked_ = 0, becns_ = 0, gated_ = 0;
};

}  // namespace ccsim
