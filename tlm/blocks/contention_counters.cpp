// ContentionCounters: see contention_counters.h.
// Paper: ../shared/papers/002_2c774bb3d32a0357.txt Sec. III-B..D; spec B.3, B.5, B.8.
#include "blocks/contention_counters.h"

#include <algorithm>
#include <stdexcept>

#include "blocks/bits.h"

namespace ccsim::blocks {

ContentionCounters::ContentionCounters() : ContentionCounters(Config{}) {}

ContentionCounters::ContentionCounters(const Config& config) : cfg_(config) {
  if (cfg_.num_ports < 1 || cfg_.num_inc_ports < 1 || cfg_.num_dec_ports < 1 || cfg_.counter_width < 1 ||
      cfg_.counter_width > 16 || cfg_.num_global_links < 1 || cfg_.num_group_routers < 2 || cfg_.partial_width < 1 ||
      cfg_.partial_width > 15 || cfg_.sent_width < 1 || cfg_.sent_width > 8 || cfg_.broadcast_period < 1 ||
      cfg_.num_rx_ports < 1) {
    throw std::invalid_argument("ContentionCounters: bad parameters");
  }
  count_max_ = static_cast<uint32_t>(ones(cfg_.counter_width));
  partial_max_ = static_cast<uint32_t>(ones(cfg_.partial_width));
  sent_max_ = static_cast<uint32_t>(ones(cfg_.sent_width));
  combined_width_ = clog2(partial_max_ + static_cast<uint64_t>(cfg_.num_group_routers - 1) * sent_max_ + 1);
  const size_t p = cfg_.num_ports, l = cfg_.num_global_links;
  const size_t others = static_cast<size_t>(cfg_.num_group_routers - 1);
  count_.assign(p, 0);
  partial_.assign(l, 0);
  rx_sum_.assign(l, 0);
  rx_mem_.assign(others * l, 0);
  rx_seen_.assign(others, 0);
  inc_n_.assign(p, 0);
  dec_n_.assign(p, 0);
  pinc_n_.assign(l, 0);
  pdec_n_.assign(l, 0);
  dirty_ports_.assign(p, 0);
  dirty_links_.assign(l, 0);
  port_dirty_.assign(p, 0);
  link_dirty_.assign(l, 0);
  rx_pending_.assign(static_cast<size_t>(cfg_.num_rx_ports) * l, 0);
  rx_pending_router_.assign(cfg_.num_rx_ports, 0);
  reset();
}

int ContentionCounters::port_width() const { return index_width(cfg_.num_ports); }
int ContentionCounters::link_width() const { return index_width(cfg_.num_global_links); }
int ContentionCounters::router_width() const {
  return cfg_.num_group_routers > 2 ? clog2(cfg_.num_group_routers - 1) : 1;
}

ContentionCounters::Inputs ContentionCounters::make_inputs() const {
  Inputs in;
  in.inc_valid.assign(cfg_.num_inc_ports, 0);
  in.inc_port.assign(cfg_.num_inc_ports, 0);
  in.dec_valid.assign(cfg_.num_dec_ports, 0);
  in.dec_port.assign(cfg_.num_dec_ports, 0);
  in.pinc_valid.assign(cfg_.num_inc_ports, 0);
  in.pinc_link.assign(cfg_.num_inc_ports, 0);
  in.pdec_valid.assign(cfg_.num_dec_ports, 0);
  in.pdec_link.assign(cfg_.num_dec_ports, 0);
  in.rx_valid.assign(cfg_.num_rx_ports, 0);
  in.rx_router.assign(cfg_.num_rx_ports, 0);
  in.rx_partial.assign(static_cast<size_t>(cfg_.num_rx_ports) * cfg_.num_global_links, 0);
  return in;
}

ContentionCounters::Outputs ContentionCounters::make_outputs() const {
  Outputs out;
  out.count.assign(cfg_.num_ports, 0);
  out.contended.assign(cfg_.num_ports, 0);
  out.partial.assign(cfg_.num_global_links, 0);
  out.combined.assign(cfg_.num_global_links, 0);
  out.combined_contended.assign(cfg_.num_global_links, 0);
  out.bcast_partial.assign(cfg_.num_global_links, 0);
  return out;
}

void ContentionCounters::reset() {
  std::fill(count_.begin(), count_.end(), 0);
  std::fill(partial_.begin(), partial_.end(), 0);
  std::fill(rx_sum_.begin(), rx_sum_.end(), 0);
  std::fill(rx_seen_.begin(), rx_seen_.end(), 0);  // rx_mem_ keeps stale data, masked by seen
  timer_ = 0;
  for (int i = 0; i < n_dirty_ports_; ++i) {
    const int o = dirty_ports_[i];
    inc_n_[o] = dec_n_[o] = 0;
    port_dirty_[o] = 0;
  }
  for (int i = 0; i < n_dirty_links_; ++i) {
    const int g = dirty_links_[i];
    pinc_n_[g] = pdec_n_[g] = 0;
    link_dirty_[g] = 0;
  }
  n_dirty_ports_ = n_dirty_links_ = n_rx_pending_ = 0;
}

void ContentionCounters::eval(Outputs& out) const {
  for (int o = 0; o < cfg_.num_ports; ++o) {
    out.count[o] = count_[o];
    out.contended[o] = test_mutation ? count_[o] > cfg_.threshold : contended(o);
  }
  for (int g = 0; g < cfg_.num_global_links; ++g) {
    out.partial[g] = partial_[g];
    out.combined[g] = static_cast<uint16_t>(combined(g));
    out.combined_contended[g] = combined_contended(g);
  }
  out.bcast_valid = broadcast_due();
  broadcast_partial(out.bcast_partial.data());
}

void ContentionCounters::broadcast_partial(uint8_t* out) const {
  for (int g = 0; g < cfg_.num_global_links; ++g) {
    out[g] = static_cast<uint8_t>(std::min<uint32_t>(partial_[g], sent_max_));
  }
}

void ContentionCounters::increment(int min_out) {
  if (!port_dirty_[min_out]) {
    port_dirty_[min_out] = 1;
    dirty_ports_[n_dirty_ports_++] = static_cast<uint16_t>(min_out);
  }
  ++inc_n_[min_out];
}

void ContentionCounters::decrement(int min_out) {
  if (!port_dirty_[min_out]) {
    port_dirty_[min_out] = 1;
    dirty_ports_[n_dirty_ports_++] = static_cast<uint16_t>(min_out);
  }
  ++dec_n_[min_out];
}

void ContentionCounters::partial_increment(int link) {
  if (!link_dirty_[link]) {
    link_dirty_[link] = 1;
    dirty_links_[n_dirty_links_++] = static_cast<uint16_t>(link);
  }
  ++pinc_n_[link];
}

void ContentionCounters::partial_decrement(int link) {
  if (!link_dirty_[link]) {
    link_dirty_[link] = 1;
    dirty_links_[n_dirty_links_++] = static_cast<uint16_t>(link);
  }
  ++pdec_n_[link];
}

bool ContentionCounters::receive_partial(int router, const uint8_t* values) {
  if (n_rx_pending_ >= cfg_.num_rx_ports) return false;
  uint8_t* dst = &rx_pending_[static_cast<size_t>(n_rx_pending_) * cfg_.num_global_links];
  for (int g = 0; g < cfg_.num_global_links; ++g) {
    dst[g] = static_cast<uint8_t>(values[g] & sent_max_);
  }
  rx_pending_router_[n_rx_pending_++] = static_cast<uint16_t>(router);
  return true;
}

void ContentionCounters::tick() {
  for (int i = 0; i < n_dirty_ports_; ++i) {
    const int o = dirty_ports_[i];
    count_[o] = static_cast<uint16_t>(clamp_add_sub(count_[o], inc_n_[o], dec_n_[o], count_max_));
    inc_n_[o] = dec_n_[o] = 0;
    port_dirty_[o] = 0;
  }
  n_dirty_ports_ = 0;
  for (int i = 0; i < n_dirty_links_; ++i) {
    const int g = dirty_links_[i];
    partial_[g] = static_cast<uint16_t>(clamp_add_sub(partial_[g], pinc_n_[g], pdec_n_[g], partial_max_));
    pinc_n_[g] = pdec_n_[g] = 0;
    link_dirty_[g] = 0;
  }
  n_dirty_links_ = 0;
  const int links = cfg_.num_global_links;
  for (int k = 0; k < n_rx_pending_; ++k) {
    const int r = rx_pending_router_[k];
    const uint8_t* src = &rx_pending_[static_cast<size_t>(k) * links];
    uint8_t* mem = &rx_mem_[static_cast<size_t>(r) * links];
    const bool seen = rx_seen_[r] != 0;
    for (int g = 0; g < links; ++g) {
      rx_sum_[g] = static_cast<uint16_t>(rx_sum_[g] + src[g] - (seen ? mem[g] : 0));
      mem[g] = src[g];
    }
    rx_seen_[r] = 1;
  }
  n_rx_pending_ = 0;
  timer_ = (timer_ == cfg_.broadcast_period - 1) ? 0 : timer_ + 1;
}

void ContentionCounters::step(const Inputs& in) {
  for (int l = 0; l < cfg_.num_inc_ports; ++l) {
    if (in.inc_valid[l]) increment(in.inc_port[l]);
    if (in.pinc_valid[l]) partial_increment(in.pinc_link[l]);
  }
  for (int l = 0; l < cfg_.num_dec_ports; ++l) {
    if (in.dec_valid[l]) decrement(in.dec_port[l]);
    if (in.pdec_valid[l]) partial_decrement(in.pdec_link[l]);
  }
  for (int p = 0; p < cfg_.num_rx_ports; ++p) {
    if (in.rx_valid[p]) {
      receive_partial(in.rx_router[p], &in.rx_partial[static_cast<size_t>(p) * cfg_.num_global_links]);
    }
  }
  tick();
}

}  // namespace ccsim::blocks
