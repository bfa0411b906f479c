#include "congestion/sideband_gather.h"

#include <algorithm>
#include <cassert>

#include "topology/torus.h"

namespace ccsim {

namespace {
uint32_t field_max(int bits) { return bits >= 32 ? 0xffffffffu : (1u << bits) - 1; }
}  // namespace

SidebandGather::SidebandGather(const Torus& t, const SidebandParams& p)
    : k_(t.k()), n_(t.n()), routers_(t.num_routers()), steps_per_phase_(t.k() / 2) {
  assert(t.wrap() && p.hop_delay >= 1);  // checked by SelfTune::attach and the parameter's range
  const int word = p.count_bits + p.throughput_bits;
  const int beats = (word + p.width - 1) / p.width;
  hop_cycles_ = p.hop_delay + beats - 1;
  max_full_ = field_max(p.count_bits);
  max_delivered_ = field_max(p.throughput_bits);
  stride_.assign(n_, 1);
  for (int d = 1; d < n_; ++d) stride_[d] = stride_[d - 1] * k_;
  acc_.resize(routers_);
  fwd_plus_.resize(routers_);
  fwd_minus_.resize(routers_);
  next_plus_.resize(routers_);
  next_minus_.resize(routers_);
}

SidebandWord SidebandGather::add(const SidebandWord& a, const SidebandWord& b) const {
  const uint64_t f = uint64_t{a.full} + b.full, d = uint64_t{a.delivered} + b.delivered;
  return {static_cast<uint32_t>(std::min<uint64_t>(f, max_full_)),
          static_cast<uint32_t>(std::min<uint64_t>(d, max_delivered_))};
}

void SidebandGather::start(const std::vector<SidebandWord>& local, Cycle now) {
  assert(!busy_ && static_cast<int>(local.size()) == routers_);
  for (int r = 0; r < routers_; ++r) {
    // A router's own counters also pass through the field widths.
    const SidebandWord w = add(local[r], SidebandWord{});
    acc_[r] = fwd_plus_[r] = fwd_minus_[r] = w;
  }
  t0_ = now;
  phase_ = 0;
  step_ = 0;
  busy_ = steps_per_phase_ > 0;
}

void SidebandGather::hop() {
  const int d = phase_;
  const int s = step_ + 1;  // 1 .. k/2
  const bool antipodal = k_ % 2 == 0 && s == steps_per_phase_;
  for (int r = 0; r < routers_; ++r) {
    const int x = r / stride_[d] % k_;
    const int minus = r + ((x == 0 ? k_ - 1 : x - 1) - x) * stride_[d];
    const int plus = r + ((x == k_ - 1 ? 0 : x + 1) - x) * stride_[d];
    // rp travels + (sent by the - neighbour); rm travels - (sent by the + neighbour).
    next_plus_[r] = fwd_plus_[minus];
    next_minus_[r] = fwd_minus_[plus];
  }
  words_sent_ += 2 * static_cast<int64_t>(routers_);
  for (int r = 0; r < routers_; ++r) {
    acc_[r] = add(acc_[r], next_plus_[r]);
    if (!antipodal) acc_[r] = add(acc_[r], next_minus_[r]);
  }
  std::swap(fwd_plus_, next_plus_);
  std::swap(fwd_minus_, next_minus_);
  if (++step_ == steps_per_phase_) {
    step_ = 0;
    if (++phase_ < n_)
      for (int r = 0; r < routers_; ++r) fwd_plus_[r] = fwd_minus_[r] = acc_[r];
  }
}

bool SidebandGather::advance(Cycle now) {
  if (!busy_) return false;
  // Hop j (1-based, over all phases) lands at t0 + j * hop_cycles.
  for (;;) {
    const Cycle due = t0_ + static_cast<Cycle>(phase_ * steps_per_phase_ + step_ + 1) * hop_cycles_;
    if (due > now) return false;
    hop();
    if (phase_ == n_) {
      busy_ = false;
      return true;
    }
  }
}

}  // namespace ccsim
