#include "congestion/qcn_congestion_point.h"

#include <algorithm>
#include <cstdint>

namespace ccsim {

int QcnCongestionPoint::quantize(int q, int q_old, int q_eq, int w) {
  const int64_t f = int64_t{q - q_eq} + int64_t{w} * (q - q_old);  // -Fb
  if (f <= 0 || q_eq <= 0) return 0;
  const int64_t fmax = int64_t{q_eq} * (2 * w + 1);  // saturates at 2 Q_eq when w = 0
  return static_cast<int>(63 * std::min(f, fmax) / fmax);
}

int QcnCongestionPoint::on_packet(int q, Rng& rng, Cycle now) {
  if (p_->packet_cycles > 0 && now > counted_) {
    const Cycle times = (now - counted_) / p_->packet_cycles;
    countdown_ -= static_cast<int>(std::min<Cycle>(times, p_->cpc));
    counted_ += times * p_->packet_cycles;
  }
  if (--countdown_ > 0) return 0;
  countdown_ = p_->cpc;
  ++samples_;
  const int fb = quantize(q, q_old_, p_->q_eq, p_->w);
  if (fb == 0 || static_cast<int>(rng.below(100)) >= p_->cnm_percent) return 0;
  q_old_ = q;
  return fb;
}

}  // namespace ccsim
