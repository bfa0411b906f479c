// congestion.protocol = "selftune": self-tuned source throttling with a global
// congestion estimate (../shared/papers/004; spec C.3-C.9), on a torus.
//   Gather (SidebandGather): every g cycles each router's count of full VC
//     buffers (network input VCs whose occupancy equals their depth) and the
//     flits delivered to its nodes in the last g cycles go through the side-band
//     network; g cycles later every router holds the global sums: snapshot
//     S_k, sampled at tau_k = k*g, available at tau_k + g. Gathers run back to
//     back.
//   Estimate (every cycle): linear extrapolation from the last two snapshots,
//     est(t) = S_k + (S_k - S_{k-1}) * (t - tau_k) / g, clamped to
//     [0, all buffers]; or the last snapshot (selftune_estimator = "last").
//   Throttle: a node starts a new packet only while est(t) <= threshold
//     (a packet already started finishes).
//   Threshold: fixed (selftune_mode = "static") or tuned every tuning period
//     by HillClimbTuner (Table 1 and the local-maximum escape).
// Every router computes the same estimate and runs the same tuner on the same
// words (the gather gives all routers identical sums; a test checks it), so
// the model keeps one estimator and one tuner for the whole network.
#pragma once
#include <memory>
#include <vector>

#include "congestion/congestion_control.h"
#include "congestion/hill_climb_tuner.h"
#include "congestion/sideband_gather.h"
#include "core/params.h"
#include "core/scheduler.h"

namespace ccsim {

struct SelfTuneParams {
  bool tune = true;  // false: static threshold
  int64_t static_threshold = 250;
  bool linear = true;                                         // estimator: linear extrapolation or the last snapshot
  Cycle tune_period = 96;                                     // rounded up to a multiple of g
  double initial = 0.01, increment = 0.01, decrement = 0.04;  // fractions of all VC buffers
  double drop_fraction = 0.75, significant_fraction = 0.75;
  int resets = 5;
  bool local_max = true;
  bool throttled_any_cycle = true;  // "currently throttling": in some cycle of the period, or at the decision
  SidebandParams sideband;
  static SelfTuneParams from_config(const Config& c);
};

// 004's estimate between snapshots: linear extrapolation from the last two (taken g cycles
// apart), `since` cycles after the last, clamped to [0, total].
int64_t extrapolate(int64_t last, int64_t previous, Cycle since, Cycle g, int64_t total);

class SelfTune : public CongestionControl {
 public:
  explicit SelfTune(const SelfTuneParams& p) : p_(p) {}
  void attach(ProtocolContext& net) override;
  bool may_inject(NicView& nic, Packet& p, Cycle now) override;
  void on_eject(const Packet& p, Cycle now) override;
  bool has_arrival_hook() const override { return true; }
  bool sources_read_switches() const override { return true; }
  nlohmann::json stats() const override;

 private:
  int64_t estimate(Cycle now) const;  // the global full-buffer count at `now`
  struct Timer : Component {
    SelfTune* cc = nullptr;
    void step(Cycle now) override { cc->on_timer(now); }
  };
  void on_timer(Cycle now);
  void sample_and_start(Cycle now);
  void on_snapshot(Cycle now);  // a gather completed at `now`
  bool throttling(Cycle t) const { return estimate(t) > threshold_; }

  SelfTuneParams p_;
  std::unique_ptr<SidebandGather> gather_;
  std::unique_ptr<HillClimbTuner> tuner_;
  Timer timer_;
  std::vector<uint32_t> delivered_;  // per router: flits delivered since the last sample
  std::vector<SidebandWord> local_;
  int64_t total_ = 0;
  Cycle g_ = 1, period_ = 96;
  int64_t threshold_ = 0;
  // Snapshots: the latest (cur_, sampled at cur_tau_) and the one before.
  int64_t cur_ = 0, prev_ = 0;
  Cycle cur_tau_ = 0;
  int snapshots_ = 0;
  int64_t period_tp_ = 0;  // delivered flits of the current tuning period
  bool period_throttled_ = false;
  int64_t throttled_cycles_ = 0, gathers_ = 0;
  // Trace at every tuning boundary.
  std::vector<int64_t> tr_cycle_, tr_threshold_, tr_full_, tr_tp_;
  std::vector<int> tr_action_;
};

}  // namespace ccsim
