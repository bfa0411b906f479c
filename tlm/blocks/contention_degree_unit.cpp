// ContentionDegreeUnit: see contention_degree_unit.h.
// Paper: ../shared/papers/000_4abd1b2c8ca2b731.txt Sec. IV-B1; spec A.5.3 (canonical cycle).
#include "blocks/contention_degree_unit.h"

#include <algorithm>
#include <stdexcept>

#include "blocks/bits.h"

namespace ccsim::blocks {

ContentionDegreeUnit::ContentionDegreeUnit() : ContentionDegreeUnit(Config{}) {}

ContentionDegreeUnit::ContentionDegreeUnit(const Config& config) : cfg_(config) {
  if (cfg_.num_inputs < 0) cfg_.num_inputs = cfg_.radix;
  if (cfg_.radix < 1 || cfg_.num_inputs < 1 || cfg_.num_inputs > 255 || cfg_.num_samples < 1 ||
      cfg_.bound_sample_interval < 1 || cfg_.num_bound_samples < 1 || cfg_.metric_threshold < 0) {
    throw std::invalid_argument("ContentionDegreeUnit: bad parameters");
  }
  degree_width_ = clog2(static_cast<uint64_t>(cfg_.num_inputs) + 1);
  sum_width_ = clog2(static_cast<uint64_t>(cfg_.num_samples) * cfg_.num_inputs + 1);
  bound_sum_width_ = clog2(static_cast<uint64_t>(cfg_.num_bound_samples) * cfg_.num_inputs + 1);
  const size_t r = static_cast<size_t>(cfg_.radix);
  sample_mem_.assign(r * cfg_.num_samples, 0);
  bound_max_mem_.assign(r * cfg_.num_bound_samples, 0);
  bound_min_mem_.assign(r * cfg_.num_bound_samples, 0);
  cur_max_.assign(r, 0);
  cur_min_.assign(r, 0);
  sum_dcr_.assign(r, 0);
  sum_max_.assign(r, 0);
  sum_min_.assign(r, 0);
  congested_.assign(r, 0);
  active_.assign(r, 0);
  lhs_factor_ = 2ull * cfg_.num_bound_samples;
  rhs_offset_ = 2ull * cfg_.num_bound_samples * cfg_.num_samples * cfg_.metric_threshold;
  reset();
}

ContentionDegreeUnit::Inputs ContentionDegreeUnit::make_inputs() const {
  Inputs in;
  in.dcr.assign(cfg_.radix, 0);
  return in;
}

ContentionDegreeUnit::Outputs ContentionDegreeUnit::make_outputs() const {
  Outputs out;
  out.congested.assign(cfg_.radix, 0);
  out.sum_dcr.assign(cfg_.radix, 0);
  out.sum_max.assign(cfg_.radix, 0);
  out.sum_min.assign(cfg_.radix, 0);
  return out;
}

void ContentionDegreeUnit::reset() {
  // Memories keep their contents (as SRAM); the *_full_ flags make them read as zero.
  sample_ptr_ = bound_ptr_ = phase_ = 0;
  sample_full_ = bound_full_ = false;
  std::fill(cur_max_.begin(), cur_max_.end(), 0);
  std::fill(cur_min_.begin(), cur_min_.end(), 0);
  std::fill(sum_dcr_.begin(), sum_dcr_.end(), 0);
  std::fill(sum_max_.begin(), sum_max_.end(), 0);
  std::fill(sum_min_.begin(), sum_min_.end(), 0);
  std::fill(active_.begin(), active_.end(), 0);
  active_ports_ = 0;
  sample_tail_clean_ = bound_tail_clean_ = false;
  for (int o = 0; o < cfg_.radix; ++o) congested_[o] = metric_exceeds(o);
}

void ContentionDegreeUnit::skip_idle(uint64_t cycles) {
  if (cycles == 0) return;
  const uint64_t n = static_cast<uint64_t>(cfg_.num_samples);
  const uint64_t b = static_cast<uint64_t>(cfg_.bound_sample_interval);
  const uint64_t m = static_cast<uint64_t>(cfg_.num_bound_samples);
  // A FIFO that has not wrapped yet holds stale words at and past its pointer (the RTL masks
  // them with the full flag until the wrap). Stepping zeros would overwrite them; clear them
  // once after each reset instead.
  const size_t r = static_cast<size_t>(cfg_.radix);
  if (!sample_full_ && !sample_tail_clean_) {
    std::fill(sample_mem_.begin() + sample_ptr_ * r, sample_mem_.end(), 0);
    sample_tail_clean_ = true;
  }
  if (!bound_full_ && !bound_tail_clean_) {
    std::fill(bound_max_mem_.begin() + bound_ptr_ * r, bound_max_mem_.end(), 0);
    std::fill(bound_min_mem_.begin() + bound_ptr_ * r, bound_min_mem_.end(), 0);
    bound_tail_clean_ = true;
  }
  if (sample_ptr_ + cycles >= n) sample_full_ = true;
  sample_ptr_ = static_cast<int>((sample_ptr_ + cycles) % n);
  const uint64_t ends = (static_cast<uint64_t>(phase_) + cycles) / b;  // completed intervals
  phase_ = static_cast<int>((phase_ + cycles) % b);
  if (bound_ptr_ + ends >= m) bound_full_ = true;
  bound_ptr_ = static_cast<int>((bound_ptr_ + ends) % m);
  // cur_max_/cur_min_ are zero (idle) and stay zero; the sums stay zero; congested_ unchanged.
}

void ContentionDegreeUnit::eval(Outputs& out) const {
  for (int o = 0; o < cfg_.radix; ++o) {
    out.congested[o] = congested_[o];
    out.sum_dcr[o] = sum_dcr_[o];
    out.sum_max[o] = sum_max_[o];
    out.sum_min[o] = sum_min_[o];
  }
}

bool ContentionDegreeUnit::metric_exceeds(int o) const {
  // metric > thr  <=>  2*M*SD > N*(SMax - SMin) + 2*M*N*thr   (SMax >= SMin always)
  const uint64_t lhs = lhs_factor_ * sum_dcr_[o];
  const uint64_t rhs = static_cast<uint64_t>(cfg_.num_samples) * (sum_max_[o] - sum_min_[o]) + rhs_offset_;
  return test_mutation ? lhs >= rhs : lhs > rhs;
}

double ContentionDegreeUnit::metric(int o) const {
  return static_cast<double>(sum_dcr_[o]) / cfg_.num_samples -
         (static_cast<double>(sum_max_[o]) - sum_min_[o]) / (2.0 * cfg_.num_bound_samples);
}

void ContentionDegreeUnit::step(const uint8_t* dcr) {
  const int radix = cfg_.radix;
  const bool interval_end = phase_ == cfg_.bound_sample_interval - 1;
  uint8_t* slot = &sample_mem_[static_cast<size_t>(sample_ptr_) * radix];
  uint8_t* bmax = &bound_max_mem_[static_cast<size_t>(bound_ptr_) * radix];
  uint8_t* bmin = &bound_min_mem_[static_cast<size_t>(bound_ptr_) * radix];
  for (int o = 0; o < radix; ++o) {
    const uint8_t d = dcr[o];
    const uint8_t oldest = sample_full_ ? slot[o] : 0;
    slot[o] = d;
    sum_dcr_[o] += d;
    sum_dcr_[o] -= oldest;
    const uint8_t mx = (phase_ == 0 || d > cur_max_[o]) ? d : cur_max_[o];
    const uint8_t mn = (phase_ == 0 || d < cur_min_[o]) ? d : cur_min_[o];
    cur_max_[o] = mx;
    cur_min_[o] = mn;
    if (interval_end) {
      sum_max_[o] += mx;
      sum_max_[o] -= bound_full_ ? bmax[o] : 0;
      sum_min_[o] += mn;
      sum_min_[o] -= bound_full_ ? bmin[o] : 0;
      bmax[o] = mx;
      bmin[o] = mn;
    }
    congested_[o] = metric_exceeds(o);
    const uint8_t act = (sum_dcr_[o] | sum_max_[o] | sum_min_[o] | mx) != 0;
    active_ports_ += act - active_[o];
    active_[o] = act;
  }
  if (sample_ptr_ == cfg_.num_samples - 1) {
    sample_ptr_ = 0;
    sample_full_ = true;
  } else {
    ++sample_ptr_;
  }
  if (interval_end) {
    phase_ = 0;
    if (bound_ptr_ == cfg_.num_bound_samples - 1) {
      bound_ptr_ = 0;
      bound_full_ = true;
    } else {
      ++bound_ptr_;
    }
  } else {
    ++phase_;
  }
}

// ------------------------------------------------------------------ RequestSelector
RequestSelector::RequestSelector(int num_inputs, uint32_t seed) : lfsr_(num_inputs) {
  for (int i = 0; i < num_inputs; ++i) {
    // SplitMix-style scramble of (seed, input); an LFSR state must not be zero.
    uint64_t z = (static_cast<uint64_t>(seed) << 32) + static_cast<uint64_t>(i) + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    const uint16_t s = static_cast<uint16_t>(z);
    lfsr_[i] = s ? s : 0xACE1u;
  }
}

void RequestSelector::step() {
  for (auto& l : lfsr_) {
    const uint16_t lsb = l & 1u;
    l >>= 1;
    if (lsb) l ^= 0xB400u;  // taps 16, 14, 13, 11
  }
}

void weighted_contention_degree(const std::vector<std::vector<int>>& requests, int num_outputs, double* dcw) {
  for (int o = 0; o < num_outputs; ++o) dcw[o] = 0.0;
  for (const auto& req : requests) {
    if (req.empty()) continue;
    const double w = 1.0 / static_cast<double>(req.size());
    for (int out : req) dcw[out] += w;
  }
}

}  // namespace ccsim::blocks
