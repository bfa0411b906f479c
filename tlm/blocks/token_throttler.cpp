// TokenThrottler: see token_throttler.h.
// Paper: ../shared/papers/000_4abd1b2c8ca2b731.txt Sec. IV-B3 (Algorithm 1), IV-B4;
// spec A.5.6, A.5.7, A.8.4.
#include "blocks/token_throttler.h"

#include <algorithm>
#include <cassert>
#include <stdexcept>

#include "blocks/bits.h"

namespace ccsim::blocks {

TokenThrottler::TokenThrottler() : TokenThrottler(Config{}) {}

TokenThrottler::TokenThrottler(const Config& config) : cfg_(config) {
  if (cfg_.num_entries < 1 || cfg_.dest_width < 1 || cfg_.dest_width > 32 || cfg_.dt_width < 1 || cfg_.dt_width > 24 ||
      cfg_.size_width < 1 || cfg_.size_width > 24 || cfg_.token_width < 1 || cfg_.token_width > 62 ||
      cfg_.src_epoch < 1 || cfg_.num_query_ports < 1 || cfg_.num_gen_ports < 1 || cfg_.num_full_ports < 1 ||
      cfg_.token_increment < 1 || cfg_.cost_scale < 1) {
    throw std::invalid_argument("TokenThrottler: bad parameters");
  }
  gen_width_ = clog2(static_cast<uint64_t>(cfg_.src_epoch) + 1);
  token_max_ = ones(cfg_.token_width);
  gen_max_ = ones(gen_width_);
  dest_mask_ = ones(cfg_.dest_width);
  dt_mask_ = ones(cfg_.dt_width);
  size_mask_ = ones(cfg_.size_width);
  const size_t t = cfg_.num_entries;
  valid_.assign(t, 0);
  full_.assign(t, 0);
  dest_.assign(t, 0);
  dt_.assign(t, 0);
  gen_.assign(t, 0);
  epoch_.assign(t, 0);
  tokens_.assign(t, 0);
  pending_gen_.assign(t, 0);
  pending_full_.assign(t, 0);
  unthrottled_.assign(t, 0);
  reset();
}

TokenThrottler::Inputs TokenThrottler::make_inputs() const {
  Inputs in;
  in.query_dest.assign(cfg_.num_query_ports, 0);
  in.query_size.assign(cfg_.num_query_ports, 0);
  in.gen_valid.assign(cfg_.num_gen_ports, 0);
  in.gen_dest.assign(cfg_.num_gen_ports, 0);
  in.gen_size.assign(cfg_.num_gen_ports, 0);
  in.full_valid.assign(cfg_.num_full_ports, 0);
  in.full_dest.assign(cfg_.num_full_ports, 0);
  return in;
}

TokenThrottler::Outputs TokenThrottler::make_outputs() const {
  Outputs out;
  out.query_eligible.assign(cfg_.num_query_ports, 0);
  out.query_throttled.assign(cfg_.num_query_ports, 0);
  const size_t t = cfg_.num_entries;
  out.entry_valid.assign(t, 0);
  out.entry_dest.assign(t, 0);
  out.entry_dt.assign(t, 0);
  out.entry_tokens.assign(t, 0);
  out.entry_gen.assign(t, 0);
  out.entry_epoch.assign(t, 0);
  out.entry_full.assign(t, 0);
  out.unthrottle.assign(t, 0);
  return out;
}

void TokenThrottler::reset() {
  std::fill(valid_.begin(), valid_.end(), 0);
  std::fill(full_.begin(), full_.end(), 0);
  std::fill(dest_.begin(), dest_.end(), 0);
  std::fill(dt_.begin(), dt_.end(), 0);
  std::fill(gen_.begin(), gen_.end(), 0);
  std::fill(epoch_.begin(), epoch_.end(), 0);
  std::fill(tokens_.begin(), tokens_.end(), 0);
  std::fill(pending_gen_.begin(), pending_gen_.end(), 0);
  std::fill(pending_full_.begin(), pending_full_.end(), 0);
  pending_throttle_ = pending_inject_ = pending_nic_full_ = false;
  pending_throttle_entry_ = pending_inject_entry_ = -1;
  n_unthrottled_ = 0;
  n_valid_ = 0;
  overflows_ = 0;
}

int TokenThrottler::find(uint32_t dest) const {
  for (int i = 0; i < cfg_.num_entries; ++i) {
    if (valid_[i] && dest_[i] == dest) return i;
  }
  return -1;
}

int TokenThrottler::throttle_target(uint32_t dest, bool* hit) const {
  const int h = find(dest);
  *hit = h >= 0;
  if (h >= 0) return h;
  for (int i = 0; i < cfg_.num_entries; ++i) {
    if (!valid_[i]) return i;
  }
  return -1;
}

bool TokenThrottler::eligible(uint32_t dest, uint32_t flits) const {
  return eligible_with(dest, flits, pending_throttle_ && pending_throttle_entry_ >= 0, pending_throttle_dest_,
                       pending_throttle_dt_);
}

bool TokenThrottler::eligible_with(uint32_t dest, uint32_t flits, bool throttle_now, uint32_t throttle_dest,
                                   uint32_t throttle_dt) const {
  assert(flits <= size_mask_ && "packet size exceeds size_width bits");
  dest &= static_cast<uint32_t>(dest_mask_);
  const uint64_t size = flits & size_mask_;
  if (throttle_now && dest == throttle_dest) {
    return size * throttle_dt == 0;  // tokens were just reset to 0 (line 7)
  }
  const int i = find(dest);
  if (i < 0) return true;
  const uint64_t cost = size * dt_[i] * static_cast<uint64_t>(cfg_.cost_scale);
  return test_mutation ? tokens_[i] + 1 >= cost : tokens_[i] >= cost;
}

bool TokenThrottler::can_inject(uint32_t dest, uint32_t flits) const { return eligible(dest, flits); }

bool TokenThrottler::throttle(uint32_t dest, uint32_t dt) {
  if (pending_throttle_) return false;
  pending_throttle_ = true;
  pending_throttle_dest_ = dest & static_cast<uint32_t>(dest_mask_);
  pending_throttle_dt_ = dt & static_cast<uint32_t>(dt_mask_);
  bool hit;
  pending_throttle_entry_ = throttle_target(pending_throttle_dest_, &hit);
  return true;
}

bool TokenThrottler::inject(uint32_t dest, uint32_t flits) {
  if (pending_inject_ || !eligible(dest, flits)) return false;
  dest &= static_cast<uint32_t>(dest_mask_);
  pending_inject_ = true;
  pending_inject_entry_ = find(dest);
  pending_inject_cost_ = pending_inject_entry_ >= 0 ? (flits & size_mask_) * dt_[pending_inject_entry_] *
                                                          static_cast<uint64_t>(cfg_.cost_scale)
                                                    : 0;
  return true;
}

void TokenThrottler::generated(uint32_t dest, uint32_t flits) {
  assert(flits <= size_mask_ && "packet size exceeds size_width bits");
  const int i = find(dest & static_cast<uint32_t>(dest_mask_));
  if (i >= 0) pending_gen_[i] += static_cast<uint32_t>(flits & size_mask_);
}

void TokenThrottler::queue_full(uint32_t dest) {
  const int i = find(dest & static_cast<uint32_t>(dest_mask_));
  if (i >= 0) pending_full_[i] = 1;
}

bool TokenThrottler::unthrottle_rule(int i) const {
  return valid_[i] && epoch_[i] == static_cast<uint32_t>(cfg_.src_epoch) && !full_[i] &&
         static_cast<uint64_t>(gen_[i]) * dt_[i] < static_cast<uint64_t>(cfg_.src_epoch);
}

int TokenThrottler::tick() {
  n_unthrottled_ = 0;
  if (pending_throttle_ && pending_throttle_entry_ < 0) ++overflows_;
  if (n_valid_ == 0 && !(pending_throttle_ && pending_throttle_entry_ >= 0)) {
    // Idle NIC: nothing is throttled (pending generation/full reports only exist for entries).
    pending_throttle_ = pending_inject_ = pending_nic_full_ = false;
    pending_throttle_entry_ = pending_inject_entry_ = -1;
    return 0;
  }
  for (int i = 0; i < cfg_.num_entries; ++i) {
    const bool throttled_now = pending_throttle_ && pending_throttle_entry_ == i;
    if (throttled_now && !(cfg_.keep_epoch_on_update && valid_[i])) {
      n_valid_ += valid_[i] ? 0 : 1;
      valid_[i] = 1;
      dest_[i] = pending_throttle_dest_;
      dt_[i] = pending_throttle_dt_;
      tokens_[i] = static_cast<uint64_t>(cfg_.token_increment);  // reset to 0 (line 7), then +1/D_t (line 20)
      gen_[i] = 0;
      epoch_[i] = 0;
      full_[i] = 0;
    } else if (valid_[i]) {
      const bool done = epoch_[i] == static_cast<uint32_t>(cfg_.src_epoch);
      const bool unthrottle = !throttled_now && unthrottle_rule(i);
      uint64_t tok = tokens_[i];
      if (pending_inject_ && pending_inject_entry_ == i) tok -= pending_inject_cost_;
      tok += static_cast<uint64_t>(cfg_.token_increment);
      tokens_[i] = std::min(tok, token_max_);
      if (throttled_now) {  // keep_epoch_on_update: a new D_t, tokens reset (line 7)
        dt_[i] = pending_throttle_dt_;
        tokens_[i] = static_cast<uint64_t>(cfg_.token_increment);
      }
      const bool full_now = pending_nic_full_ || pending_full_[i];
      if (unthrottle) {
        valid_[i] = 0;
        --n_valid_;
        unthrottled_[n_unthrottled_++] = dest_[i];
      } else if (done) {
        gen_[i] = static_cast<uint32_t>(std::min<uint64_t>(pending_gen_[i], gen_max_));
        epoch_[i] = 1;
        full_[i] = full_now;
      } else {
        gen_[i] = static_cast<uint32_t>(std::min<uint64_t>(static_cast<uint64_t>(gen_[i]) + pending_gen_[i], gen_max_));
        ++epoch_[i];
        full_[i] = full_[i] || full_now;
      }
    }
    pending_gen_[i] = 0;
    pending_full_[i] = 0;
  }
  pending_throttle_ = pending_inject_ = pending_nic_full_ = false;
  pending_throttle_entry_ = pending_inject_entry_ = -1;
  return n_unthrottled_;
}

uint32_t TokenThrottler::throttling_degree(uint32_t dest) const {
  const int i = find(dest & static_cast<uint32_t>(dest_mask_));
  return i >= 0 ? dt_[i] : 0;
}

uint64_t TokenThrottler::tokens_scaled(uint32_t dest) const {
  const int i = find(dest & static_cast<uint32_t>(dest_mask_));
  return i >= 0 ? tokens_[i] : 0;
}

int TokenThrottler::num_throttled() const { return n_valid_; }

void TokenThrottler::eval(const Inputs& in, Outputs& out) const {
  // query/inject/unthrottle/overflow depend on this cycle's throttle input (combinational).
  bool hit = false;
  int target = -1;
  const uint32_t thr_dest = in.throttle_dest & static_cast<uint32_t>(dest_mask_);
  const uint32_t thr_dt = in.throttle_dt & static_cast<uint32_t>(dt_mask_);
  if (in.throttle_valid) target = throttle_target(thr_dest, &hit);
  const bool thr_now = in.throttle_valid && target >= 0;
  for (int q = 0; q < cfg_.num_query_ports; ++q) {
    const uint32_t d = in.query_dest[q] & static_cast<uint32_t>(dest_mask_);
    out.query_eligible[q] = eligible_with(d, in.query_size[q], thr_now, thr_dest, thr_dt);
    out.query_throttled[q] = (thr_now && d == thr_dest) || find(d) >= 0;
  }
  out.inject_ok = eligible_with(in.inject_dest, in.inject_size, thr_now, thr_dest, thr_dt);
  out.overflow = in.throttle_valid && target < 0;
  for (int i = 0; i < cfg_.num_entries; ++i) {
    out.entry_valid[i] = valid_[i];
    out.entry_dest[i] = dest_[i];
    out.entry_dt[i] = dt_[i];
    out.entry_tokens[i] = tokens_[i];
    out.entry_gen[i] = gen_[i];
    out.entry_epoch[i] = epoch_[i];
    out.entry_full[i] = full_[i];
    out.unthrottle[i] = unthrottle_rule(i) && !(in.throttle_valid && target == i);
  }
}

void TokenThrottler::step(const Inputs& in) {
  if (in.throttle_valid) throttle(in.throttle_dest, in.throttle_dt);
  if (in.inject_valid) inject(in.inject_dest, in.inject_size);
  for (int g = 0; g < cfg_.num_gen_ports; ++g) {
    if (in.gen_valid[g]) generated(in.gen_dest[g], in.gen_size[g]);
  }
  for (int f = 0; f < cfg_.num_full_ports; ++f) {
    if (in.full_valid[f]) queue_full(in.full_dest[f]);
  }
  if (in.nic_full) nic_queue_full();
  tick();
}

}  // namespace ccsim::blocks
