// congestion.protocol = "qcn": the original QCN (IEEE 802.1Qau) as paper 001
// section 2.3 describes it, for comparison with QCN-Switch (spec A.4; 001
// disables it in every experiment).
//   Congestion points: every switch output queue (or input buffer) samples
//     one packet in CPC (qcn_congestion_point.h); a congested sample sends,
//     for %CNMs of them, a 1-flit CNM carrying |Fb| to the sampled packet's
//     source NIC, on a high-priority control class.
//   Reaction point, one rate limiter per NIC: a CNM sets the target rate TR to
//     the current rate CR and cuts CR by the factor 1 - G_d |Fb| (G_d = 1/128,
//     at most by half), down to a minimum rate; after every BC_l packets sent
//     without a CNM, CR moves half way to TR (fast recovery), and after the
//     first F such cycles TR also grows by R_AI (active increase). A limited
//     NIC starts a packet size/CR cycles after the previous one started.
// Departures: the standard's timer and hyper-active increase are left out
// (001: "the additive increase policy is applied when no notifications are
// received for a period corresponding to 100 frames"); one limiter per NIC.
#pragma once
#include <vector>

#include "congestion/congestion_control.h"
#include "congestion/qcn_congestion_point.h"
#include "core/params.h"

namespace ccsim {

struct QcnParams {
  bool output_sampling = true;
  double q_eq = 0.2;  // share of one VC's buffer
  QcnCpParams cp;     // q_eq filled in per port kind
  double gd = 1.0 / 128;
  int bc_limit = 100;         // packets per byte-counter cycle
  int fast_recovery = 5;      // cycles of fast recovery
  double rai = 0.000125;      // active increase, fraction of line rate (5 Mb/s of 40 Gb/s)
  double min_rate = 0.00025;  // 10 Mb/s of 40 Gb/s
  int output_buffer = 32;     // router.output_buffer
  static QcnParams from_config(const Config& c);
};

// Congestion notification message: from a congestion point to the sampled packet's source.
inline const PacketKind kCnmPacket = declare_packet_kind("cnm");

class Qcn : public CongestionControl {
 public:
  explicit Qcn(const QcnParams& p) : p_(p) {}
  void attach(ProtocolContext& net) override;
  std::vector<VcClass> vc_classes() const override { return {{"data", 0}, {"cnm", 2}}; }
  bool may_inject(NicView& nic, Packet& p, Cycle now) override;
  void on_inject(NicView& nic, Packet& p, Cycle now) override;
  void on_switch_forward(SwitchView& r, Packet& p, int in_port, int in_vc, int out_port, Cycle now) override;
  void on_control(NicView& nic, Packet& p, Cycle now) override;
  bool has_switch_hook() const override { return true; }
  nlohmann::json stats() const override;

 private:
  struct ReactionPoint {
    double cr = 1.0, tr = 1.0;
    int sent = 0, cycles = 0;
    bool limited = false;
    Cycle next_start = 0;
  };
  static constexpr int kCnmClass = 1;
  void make_congestion_points();

  QcnParams p_;
  std::vector<ReactionPoint> rps_;
  std::vector<QcnCongestionPoint> cps_;  // per router and port
  std::vector<QcnCpParams> cp_params_;   // per router and port (Q_eq by buffer depth)
  int radix_ = 0;
  int64_t cnms_ = 0, cnms_received_ = 0, gated_ = 0;
};

}  // namespace ccsim
