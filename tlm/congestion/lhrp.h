// congestion.protocol = "lhrp": the Last-Hop Reservation Protocol (003
// section 3.2). Every data packet is first sent speculatively on a
// low-priority class. The switch an endpoint hangs on counts the flits it
// holds for that endpoint; a speculative packet arriving while the count is at
// the threshold (1000 flits) is dropped there, and the switch's reservation
// scheduler (the last-hop scheduler block, tlm/blocks/last_hop_scheduler.h)
// assigns it a retransmission time carried back by the NACK. The source
// resends the packet at that time, non-speculatively (never dropped). Every
// data packet is acknowledged.
#pragma once
#include <vector>

#include "blocks/last_hop_scheduler.h"
#include "congestion/congestion_control.h"
#include "core/params.h"

namespace ccsim {

class Lhrp : public CongestionControl {
 public:
  // VC classes: data (non-speculative), ACK/NACK, speculative.
  static constexpr int kDataClass = 0, kAckClass = 1, kSpeculativeClass = 2;
  static constexpr uint32_t kResend = 1;  // a NACKed packet waiting for its time

  explicit Lhrp(const Config& cfg);
  std::vector<VcClass> vc_classes() const override { return {{"data", 1}, {"ack", 2}, {"speculative", 0}}; }
  void attach(Network& net) override;
  void on_create(Packet& p) override { p.vc_class = kSpeculativeClass; }
  bool may_inject(Nic&, const Packet& p, Cycle now) override { return !(p.cc_flags & kResend) || now >= p.cc_value; }
  bool on_switch_arrival(Router& r, Packet& p, int in_port, Cycle now) override;
  void on_drop(Router& r, Packet& p, Cycle now) override;
  void on_eject(const Packet& p, Cycle now) override;
  void on_deliver(Nic& nic, Packet& p, Cycle now) override { send_ack(nic, p, kAckClass, 0, now); }
  void on_control(Nic& nic, Packet& c, Cycle now) override;
  bool has_arrival_hook() const override { return true; }
  nlohmann::json stats() const override;

 private:
  // The scheduler of router r with this cycle's counts registered.
  blocks::LastHopScheduler& scheduler(int r, Cycle now);

  blocks::LastHopScheduler::Config block_;
  std::vector<blocks::LastHopScheduler> schedulers_;  // per router
  std::vector<Cycle> ticked_;                         // last cycle each one was ticked
  int64_t nacks_ = 0, speculative_ = 0;
};

}  // namespace ccsim
