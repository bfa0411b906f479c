// What the intercepted CNMs of QCN-Switch did over the measured window
// (routing.qcn_cnm_stats): per port kind (local, global), how many raised,
// kept or cut their port's probability, with the mean feedback and Fb_avg
// they met. Under uniform traffic past saturation this tells whether the
// feedback comparison still cuts (001 3.2's positive control loop).
#pragma once
#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "core/types.h"
#include "routing/qcn_port_probabilities.h"

namespace ccsim {

class QcnCnmStats {
 public:
  QcnCnmStats(Cycle start, Cycle end) : start_(start), end_(end) {}

  void record(Cycle now, bool global, CnmOutcome outcome, int fb, double fb_avg) {
    if (now < start_ || now >= end_) return;
    Kind& k = kinds_[global];
    ++k.outcomes[static_cast<int>(outcome)];
    k.fb_sum += fb;
    k.fb_avg_sum += fb_avg;
  }

  nlohmann::json to_json() const {
    nlohmann::json j;
    for (int g = 0; g < 2; ++g) {
      const Kind& k = kinds_[g];
      const int64_t n = k.outcomes[0] + k.outcomes[1] + k.outcomes[2];
      j[g ? "global" : "local"] = {{"increase", k.outcomes[0]},
                                   {"hold", k.outcomes[1]},
                                   {"decrease", k.outcomes[2]},
                                   {"mean_fb", n ? k.fb_sum / static_cast<double>(n) : 0.0},
                                   {"mean_fb_avg", n ? k.fb_avg_sum / static_cast<double>(n) : 0.0}};
    }
    return j;
  }

 private:
  struct Kind {
    std::array<int64_t, 3> outcomes{};
    double fb_sum = 0, fb_avg_sum = 0;
  };
  Cycle start_, end_;
  std::array<Kind, 2> kinds_;
};

}  // namespace ccsim
