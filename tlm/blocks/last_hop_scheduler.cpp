// LastHopScheduler: see last_hop_scheduler.h.
// Paper: ../shared/papers/003_4ae6273e4fa61935.txt Sec. 3.2, 6.3, 6.4; spec B.9, B.11.1.
#include "blocks/last_hop_scheduler.h"

#include <algorithm>
#include <cassert>
#include <stdexcept>

#include "blocks/bits.h"

namespace ccsim::blocks {

LastHopScheduler::LastHopScheduler() : LastHopScheduler(Config{}) {}

LastHopScheduler::LastHopScheduler(const Config& config) : cfg_(config) {
  if (cfg_.num_endpoints < 1 || cfg_.num_req_ports < 1 || cfg_.num_enq_ports < 1 || cfg_.num_deq_ports < 1 ||
      cfg_.count_width < 1 || cfg_.count_width > 31 || cfg_.drop_threshold < 0 || cfg_.time_width < 1 ||
      cfg_.time_width > 63 || cfg_.size_width < 1 || cfg_.size_width > 31 || cfg_.flits_width < 1 ||
      cfg_.flits_width > 31) {
    throw std::invalid_argument("LastHopScheduler: bad parameters");
  }
  count_max_ = ones(cfg_.count_width);
  time_mask_ = ones(cfg_.time_width);
  size_mask_ = ones(cfg_.size_width);
  flits_mask_ = ones(cfg_.flits_width);
  queued_.assign(cfg_.num_endpoints, 0);
  next_free_.assign(cfg_.num_endpoints, 0);
  next_free_d_.assign(cfg_.num_endpoints, 0);
  added_.assign(cfg_.num_endpoints, 0);
  removed_.assign(cfg_.num_endpoints, 0);
  reserved_.assign(cfg_.num_endpoints, false);
  reset();
}

int LastHopScheduler::ep_width() const { return index_width(cfg_.num_endpoints); }

LastHopScheduler::Inputs LastHopScheduler::make_inputs() const {
  Inputs in;
  in.req_valid.assign(cfg_.num_req_ports, 0);
  in.req_spec.assign(cfg_.num_req_ports, 0);
  in.req_ep.assign(cfg_.num_req_ports, 0);
  in.req_size.assign(cfg_.num_req_ports, 0);
  in.enq_valid.assign(cfg_.num_enq_ports, 0);
  in.enq_ep.assign(cfg_.num_enq_ports, 0);
  in.enq_flits.assign(cfg_.num_enq_ports, 0);
  in.deq_valid.assign(cfg_.num_deq_ports, 0);
  in.deq_ep.assign(cfg_.num_deq_ports, 0);
  in.deq_flits.assign(cfg_.num_deq_ports, 0);
  return in;
}

LastHopScheduler::Outputs LastHopScheduler::make_outputs() const {
  Outputs out;
  out.drop.assign(cfg_.num_req_ports, 0);
  out.grant_valid.assign(cfg_.num_req_ports, 0);
  out.grant_time.assign(cfg_.num_req_ports, 0);
  out.queued.assign(cfg_.num_endpoints, 0);
  out.next_free.assign(cfg_.num_endpoints, 0);
  return out;
}

void LastHopScheduler::reset() {
  std::fill(queued_.begin(), queued_.end(), 0);
  std::fill(next_free_.begin(), next_free_.end(), 0);
  std::fill(next_free_d_.begin(), next_free_d_.end(), 0);
  std::fill(added_.begin(), added_.end(), 0);
  std::fill(removed_.begin(), removed_.end(), 0);
  std::fill(reserved_.begin(), reserved_.end(), false);
}

bool LastHopScheduler::over_threshold(uint32_t queued) const {
  const uint64_t q = queued + (test_mutation ? 1u : 0u);
  const uint64_t theta = static_cast<uint64_t>(cfg_.drop_threshold);
  return cfg_.threshold_strict ? q > theta : q >= theta;
}

bool LastHopScheduler::should_drop(int e) const { return over_threshold(queued_[e]); }

uint64_t LastHopScheduler::reserve(int e, uint32_t size, uint64_t now) {
  assert(size <= size_mask_ && "reservation size exceeds size_width bits");
  // The first grant of a cycle for e starts at max(now, next_free), each later one where the one
  // before it ends (modulo 2^time_width, as the RTL's sums of the earlier lanes' sizes).
  const uint64_t start = reserved_[e] ? next_free_d_[e] : std::max(now & time_mask_, next_free_[e]);
  reserved_[e] = true;
  next_free_d_[e] = (start + (size & size_mask_)) & time_mask_;
  return start;
}

void LastHopScheduler::tick() {
  for (int e = 0; e < cfg_.num_endpoints; ++e) {
    queued_[e] = static_cast<uint32_t>(clamp_add_sub(queued_[e], added_[e], removed_[e], count_max_));
    added_[e] = removed_[e] = 0;
    next_free_[e] = next_free_d_[e];
    reserved_[e] = false;
  }
}

void LastHopScheduler::eval(const Inputs& in, Outputs& out) const {
  // Lanes in order; each endpoint's grants follow each other from max(now, next_free).
  uint64_t nf[64];
  std::vector<uint64_t> nf_big;
  uint64_t* next = nf;
  if (cfg_.num_endpoints > 64) {
    nf_big.resize(next_free_.size());
    next = nf_big.data();
  }
  const uint64_t now = in.now & time_mask_;
  for (int e = 0; e < cfg_.num_endpoints; ++e) next[e] = std::max(now, next_free_[e]);
  for (int p = 0; p < cfg_.num_req_ports; ++p) {
    const int e = static_cast<int>(in.req_ep[p]);
    const bool drop = in.req_valid[p] && in.req_spec[p] && over_threshold(queued_[e]);
    const bool grant = drop || (in.req_valid[p] && !in.req_spec[p]);
    const uint64_t start = next[e];
    out.drop[p] = drop;
    out.grant_valid[p] = grant;
    out.grant_time[p] = grant ? start : 0;
    if (grant) next[e] = (start + (in.req_size[p] & size_mask_)) & time_mask_;
  }
  for (int e = 0; e < cfg_.num_endpoints; ++e) {
    out.queued[e] = queued_[e];
    out.next_free[e] = next_free_[e];
  }
}

void LastHopScheduler::step(const Inputs& in) {
  for (int p = 0; p < cfg_.num_req_ports; ++p) {
    if (!in.req_valid[p]) continue;
    const int e = static_cast<int>(in.req_ep[p]);
    if (in.req_spec[p]) {
      speculative_head(e, in.req_size[p], in.now);
    } else {
      reserve(e, in.req_size[p], in.now);
    }
  }
  for (int l = 0; l < cfg_.num_enq_ports; ++l) {
    if (in.enq_valid[l]) enqueue(static_cast<int>(in.enq_ep[l]), static_cast<uint32_t>(in.enq_flits[l] & flits_mask_));
  }
  for (int l = 0; l < cfg_.num_deq_ports; ++l) {
    if (in.deq_valid[l]) dequeue(static_cast<int>(in.deq_ep[l]), static_cast<uint32_t>(in.deq_flits[l] & flits_mask_));
  }
  tick();
}

}  // namespace ccsim::blocks
