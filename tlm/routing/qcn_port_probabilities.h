// QCN-Switch's minimal-routing probabilities of one switch (paper 001 section
// 3.1.2 and 3.2; spec A.6, A.7): one probability P (percent, 0..100, initially
// 100) per transit port, managed by AIMD from intercepted CNMs.
//  * Base: a CNM with feedback |Fb| for port j multiplies P[j] by
//    R = 1 - |L_f Fb|; PC_l packets sent through j without a CNM on j add PI.
//  * Feedback comparison: Fb_avg = mean of the last |Fb| of every transit
//    port (0 before the first CNM); a CNM with |Fb| <= Fb_avg - Th_1 adds PI,
//    one with |Fb| > Fb_avg + Th_2 multiplies P[j] by 1 - L_f (|Fb| - Fb_avg),
//    others leave P[j] alone.
// Every CNM on j restarts j's packet count.
#pragma once
#include <vector>

namespace ccsim {

struct QcnSwitchParams {
  double lf = 1.0 / 64;      // reduction limiting factor L_f
  int pc_limit = 100;        // PC_l: packets without a CNM before +PI
  double pi = 1.0;           // PI, percentage points
  bool fb_compare = true;    // feedback comparison variant
  double th1 = 0, th2 = 30;  // feedback-comparison thresholds
};

// What an intercepted CNM did to its port's probability.
enum class CnmOutcome { Increase, Hold, Decrease };

class PortProbabilityTable {
 public:
  // Transit ports are [first, first + count).
  PortProbabilityTable(int first, int count, const QcnSwitchParams* p);
  bool is_transit(int port) const { return port >= first_ && port < first_ + count(); }
  int count() const { return static_cast<int>(prob_.size()); }
  double probability(int port) const { return prob_[port - first_]; }
  // A packet left through transit `port`.
  void on_transmit(int port);
  // A CNM with feedback magnitude `fb` (0..63) arrived for transit `port`.
  CnmOutcome on_cnm(int port, int fb);
  // Plain multiplicative decrease (source processing of 001 section 3.3.1).
  void decrease(int port, int fb);
  double fb_average() const { return static_cast<double>(fb_sum_) / count(); }

 private:
  void increase(int i);
  const QcnSwitchParams* p_;
  int first_;
  std::vector<double> prob_;
  std::vector<int> sent_;  // packets since the last CNM or increase
  std::vector<int> last_fb_;
  int fb_sum_ = 0;
};

}  // namespace ccsim
