// congestion.protocol = "srp" and "smsrp": the Speculative Reservation
// Protocol (003 section 2.2; 000 section III-B) and Small-Message SRP (003
// section 3.1).
//   SRP: the first packet of a message goes with a reservation (1 flit,
//     high priority) for the message's flits; meanwhile the message goes
//     speculatively. The destination NIC's scheduler grants the time
//     max(now, next free) and books ceil(S * (1 + overhead)) cycles of its
//     ejection channel. At the granted time the rest of the message and any
//     dropped packet go on the data class. Messages of fewer than
//     `min_packets` packets skip the protocol. SRP limits speculation (000
//     III-B): a source has at most `speculative_limit` messages per
//     destination in speculative flight (default 1; 0: no limit); a message
//     beyond it sends its reservation and goes only at the granted time
//     (speculative.h says how long a message counts).
//   SMSRP: everything goes speculatively first; only a NACK starts the
//     reservation (for the message's unacknowledged flits). No limit by
//     default (003 3.1 sends every message speculatively); with
//     `smsrp_speculative_limit` a message beyond it waits at its source.
//   Switches drop a speculative packet at the front of an input VC once its
//   head has queued more than `timeout` cycles in switches, and NACK it.
// Presets: "lhrp" (003 Table 1: 1 us timeout; every message reserved; every
// data packet ACKed, 003 footnote 1) and "cbcm" (000 V-A: 2000 cycles, messages
// under 4 packets skip it; only speculative packets ACKed, the spec's reading of
// 000, which names no ACKs: with 1-flit packets an ACK per packet doubles the
// ejection traffic); the 0.05 overhead adjustment is 000's and our default for 003.
#pragma once
#include "congestion/scheduler_bank.h"
#include "congestion/speculative.h"
#include "core/params.h"

namespace ccsim {

struct SrpParams {
  bool smsrp = false;
  Cycle timeout = 1000;
  double overhead = 0.05;
  int min_packets = 0;
  int speculative_limit = 1;      // per (source, destination); SMSRP's default is 0 (none)
  bool limit_per_source = false;  // SRP's limit over all of a source's destinations
  bool ack_all = true;            // every data packet ACKed, or only the speculative ones
  static SrpParams from_config(const Config& c, bool smsrp);
};

class Srp : public SpeculativeProtocol {
 public:
  Srp(const Config& cfg, const SrpParams& p) : SpeculativeProtocol(cfg, p.timeout, true), p_(p) {
    speculative_limit_ = p.speculative_limit;
    limit_per_source_ = p.limit_per_source;
    ack_all_ = p.ack_all;
  }
  void attach(ProtocolContext& net) override;
  nlohmann::json stats() const override;
  std::vector<hw::Block> hardware_blocks() const override { return {hw::Block::LastHopScheduler}; }

 protected:
  Policy reservation_policy(const Packet& first) const override {
    if (first.message_packets < p_.min_packets) return Policy::Plain;
    return p_.smsrp ? Policy::OnNack : Policy::ReserveFirst;
  }
  Cycle grant_time(NicView& nic, const Packet& reservation, Cycle now) override;

 private:
  SrpParams p_;
  SchedulerBank endpoints_;  // per node: its ejection channel's reservations
};

}  // namespace ccsim
