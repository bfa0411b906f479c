// A QCN congestion point (IEEE 802.1Qau; paper 001 section 2.3, spec A.3):
// one per sampled switch buffer. Every CPC-th packet through the buffer is a
// sample; with Q the buffer's occupancy, Q_off = Q - Q_eq and Q_delta = Q -
// Q_old, the feedback Fb = -(Q_off + w Q_delta) is congestion when negative.
// Its magnitude is quantized to 6 bits (1..63, saturating at an occupancy of
// 2 Q_eq when w = 0) and, for %CNMs of the congested samples, a congestion
// notification message (CNM) carrying it goes to the source of the sampled
// packet. Q_old is the occupancy at the previous CNM (paper; irrelevant for
// the paper's w = 0). Used by routing "qcn_switch" and protocol "qcn".
#pragma once
#include <string>
#include <vector>

#include "core/params.h"
#include "core/rng.h"
#include "core/types.h"

namespace ccsim {

struct QcnCpParams {
  int q_eq = 20;         // equilibrium occupancy Q_eq (flits)
  int w = 0;             // weight of Q_delta (001 Table I: 0; standard: 2)
  int cpc = 100;         // congestion point cycle: packets per sample
  int cnm_percent = 30;  // %CNMs: congested samples that send a CNM
  // 0: CPC counts packets through the buffer (001's text). > 0: also every
  // `packet_cycles` cycles count as a packet, so a buffer is sampled at
  // least every CPC packet times (FOGSim's countdown, spec A.14-4 [R]).
  int packet_cycles = 0;

  // `section`.qcn_w, _cpc, _cnm_percent and _cpc_unit (q_eq is the caller's: it depends on the
  // sampled buffer).
  static QcnCpParams from_config(const Config& c, const std::string& section);
};

// The keys of the congestion points of routing "qcn_switch" (section "routing") and protocol
// "qcn" (section "congestion"): qcn_sampling, qcn_qeq, qcn_w, qcn_cpc, qcn_cpc_unit,
// qcn_cnm_percent, then the owner's own `more`. `sampling_doc` says what the two sampling places
// are for the owner.
std::vector<ParamSpec> qcn_congestion_point_params(const std::string& section, const std::string& owner,
                                                   const std::string& sampling_doc, std::vector<ParamSpec> more);

class QcnCongestionPoint {
 public:
  explicit QcnCongestionPoint(const QcnCpParams* p) : p_(p), countdown_(p->cpc) {}
  // A packet passed the buffer in cycle `now`; the buffer holds `q` flits:
  // the |Fb| (1..63) of the CNM to send for it, or 0 for none.
  int on_packet(int q, Rng& rng, Cycle now);
  // The 6-bit magnitude of Fb = -((q - q_eq) + w (q - q_old)); 0 when not congested.
  static int quantize(int q, int q_old, int q_eq, int w);
  int samples() const { return samples_; }

 private:
  const QcnCpParams* p_;
  int countdown_;
  int q_old_ = 0;
  Cycle counted_ = 0;  // time counted into the countdown up to here
  int samples_ = 0;
};

}  // namespace ccsim
