// congestion.protocol = "lhrp": the Last-Hop Reservation Protocol (003
// section 3.2). Every data packet is first sent speculatively on a
// low-priority class. The switch an endpoint hangs on counts the flits it
// holds for that endpoint; a speculative packet arriving while the count is at
// the threshold (003: 1000 flits) is dropped there, and the switch's reservation
// scheduler (the last-hop scheduler block, tlm/blocks/last_hop_scheduler.h)
// assigns it a retransmission time carried back by the NACK. The source
// resends the packet at that time, non-speculatively (never dropped). Every
// data packet is acknowledged.
// Variants:
//   fabric drop (6.1, `lhrp_fabric_timeout` > 0): speculative packets may also
//     be dropped before the last hop after queuing that long; such a NACK has
//     no time and the packet goes speculatively again, until `coalesce_after`
//     NACKs in a row make the source reserve (a reservation the last-hop
//     switch consumes and grants).
//   combined (6.4, `lhrp_srp_min_flits` > 0): messages of at least that many
//     flits use SRP, their reservations served by the same last-hop scheduler,
//     with SRP's limit on messages in speculative flight (`srp_speculative_limit`).
//   limited (`lhrp_speculative_limit` > 0; ours, 003 has none): a source keeps
//     at most that many messages per destination in speculative flight.
#pragma once
#include "congestion/scheduler_bank.h"
#include "congestion/speculative.h"
#include "core/params.h"

namespace ccsim {

class Lhrp : public SpeculativeProtocol {
 public:
  explicit Lhrp(const Config& cfg);
  void attach(ProtocolContext& net) override;
  bool on_switch_arrival(SwitchView& r, Packet& p, int in_port, Cycle now) override;
  bool may_drop_in_fabric(SwitchView& r, const Packet& p) override;
  void on_eject(const Packet& p, Cycle now) override;
  bool has_arrival_hook() const override { return true; }
  nlohmann::json stats() const override;
  std::vector<hw::Block> hardware_blocks() const override { return {hw::Block::LastHopScheduler}; }

  // The most flits a last-hop switch can hold for one endpoint, by where they
  // are, and the most its count can reach (the block's counter saturates).
  struct Reach {
    int64_t inputs = 0, output = 0, ejection = 0, held = 0, total = 0;
  };
  static constexpr int64_t kPaperThreshold = 1000;  // 003 Table 1

 protected:
  Policy reservation_policy(const Packet& first) const override {
    if (srp_min_flits_ > 0 && first.message_packets * first.size >= srp_min_flits_) return Policy::ReserveFirst;
    return Policy::Retry;
  }

 private:
  Reach reach(ProtocolContext& net, int router) const;
  void set_threshold(ProtocolContext& net, int64_t configured);

  blocks::LastHopScheduler::Config block_;
  SchedulerBank switches_;  // per router
  int srp_min_flits_;
  double srp_overhead_;
  int64_t speculative_ = 0;
};

}  // namespace ccsim
