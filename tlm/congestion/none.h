// congestion.protocol = "none": no congestion control. With congestion.acks
// every data packet is acknowledged by a 1-flit ACK on a high-priority class
// (003's baseline: "all data packets, even if lossless, require acknowledgments").
#pragma once
#include "congestion/congestion_control.h"

namespace ccsim {

class NoCongestionControl : public CongestionControl {
 public:
  explicit NoCongestionControl(bool acks) : acks_(acks) {}
  std::vector<VcClass> vc_classes() const override {
    if (!acks_) return {{"data", 0}};
    return {{"data", 0}, {"ack", 2}};
  }
  bool acts_at_injection() const override { return false; }
  void on_deliver(NicView& nic, Packet& p, Cycle now) override {
    if (acks_) send_ack(nic, p, 1, 0, now);
  }

 private:
  bool acks_;
};

}  // namespace ccsim
