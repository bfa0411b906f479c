#include "congestion/hotspot_detector.h"

#include <algorithm>
#include <cmath>

namespace ccsim {

HotspotDetector::HotspotDetector(int num_nodes, const DetectorParams& p) : p_(p), list_((num_nodes + 63) / 64, 0) {}

void HotspotDetector::add(int src) {
  uint64_t& w = list_[src >> 6];
  const uint64_t bit = uint64_t{1} << (src & 63);
  if (!(w & bit)) {
    w |= bit;
    ++count_;
  }
}

void HotspotDetector::clear() {
  std::fill(list_.begin(), list_.end(), 0);
  count_ = 0;
  mode_ = Mode::Idle;
  dt_sent_ = 0;
  resend_ = false;
  unmarked_ = false;
}

void HotspotDetector::settle(Cycle now) {
  if (mode_ == Mode::Idle || now < epoch_end_) return;
  if (mode_ == Mode::Hotspot) {
    if (!p_.exit_on_unmarked) return;
    if (unmarked_) {
      clear();
      ++exits_;
      return;
    }
    epoch_end_ = now + p_.epoch;
    return;
  }
  if (count_ >= p_.min_dt) {
    mode_ = Mode::Hotspot;
    resend_ = true;
    unmarked_ = false;
    epoch_end_ = now + p_.epoch;
    ++detections_;
  } else {
    clear();
  }
}

void HotspotDetector::on_data(int src, bool marked, Cycle now) {
  settle(now);
  switch (mode_) {
    case Mode::Idle:
      if (!marked) return;
      add(src);
      mode_ = Mode::Observe;
      epoch_end_ = now + p_.epoch;
      return;
    case Mode::Observe:
      if (marked)
        add(src);
      else
        clear();
      return;
    case Mode::Hotspot:
      add(src);
      unmarked_ = unmarked_ || !marked;
      return;
  }
}

void HotspotDetector::on_unthrottle(int src, Cycle now) {
  settle(now);
  if (mode_ != Mode::Hotspot) return;
  uint64_t& w = list_[src >> 6];
  const uint64_t bit = uint64_t{1} << (src & 63);
  if (!(w & bit)) return;
  w &= ~bit;
  --count_;
  resend_ = true;  // the others get the updated D_t
  if (count_ == 0) clear();
}

int HotspotDetector::poll(Cycle now, std::vector<int>& to) {
  settle(now);
  to.clear();
  if (mode_ != Mode::Hotspot || now < quiet_until_ || !owed()) return 0;
  for (size_t i = 0; i < list_.size(); ++i)
    for (uint64_t m = list_[i]; m; m &= m - 1) to.push_back(static_cast<int>(i * 64 + __builtin_ctzll(m)));
  dt_sent_ = count_;
  resend_ = false;
  quiet_until_ = now + static_cast<Cycle>(std::ceil(count_ / p_.epsilon));
  return count_;
}

Cycle HotspotDetector::next_event() const {
  if (mode_ == Mode::Observe) return epoch_end_;
  if (mode_ == Mode::Hotspot && owed()) return quiet_until_;
  return -1;
}

}  // namespace ccsim
