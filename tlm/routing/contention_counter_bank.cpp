#include "routing/contention_counter_bank.h"

#include <algorithm>

#include <fmt/format.h>

#include "blocks/bits.h"

namespace ccsim {

namespace {

blocks::ContentionCounters::Config block_config(const Dragonfly& df, const ContentionCounterParams& params) {
  blocks::ContentionCounters::Config c;
  c.num_ports = df.radix(0);
  // Wide enough for all input VCs (at most 32 per port) to count at once: a
  // counter clamped at its maximum would drift low as it counts down.
  c.counter_width = blocks::clog2(uint64_t{32} * static_cast<uint64_t>(c.num_ports) + 1);
  c.partial_width = std::min(15, blocks::clog2(uint64_t{32} * static_cast<uint64_t>(df.p() + df.h()) + 1));
  c.threshold = params.threshold;
  // Without ECtN the partial arrays stay unused: keep them minimal.
  c.num_global_links = params.ectn ? std::max(1, df.a() * df.h()) : 1;
  c.num_group_routers = params.ectn ? std::max(2, df.a()) : 2;
  c.num_rx_ports = c.num_group_routers - 1;  // a whole group's broadcast arrives in one cycle
  c.broadcast_period = params.broadcast_period;
  c.combined_threshold = params.combined_threshold;
  return c;
}

}  // namespace

ContentionCounterBank::ContentionCounterBank(const Dragonfly& df, const ContentionCounterParams& params)
    : df_(df), params_(params), links_(block_config(df, params).num_global_links), ticked_(df.num_routers(), -1) {
  for (int r = 0; r < df.num_routers(); ++r)
    blocks_.push_back(
        hw::make_contention_counters(block_config(df, params), params.hardware, fmt::format("router:{}", r)));
  if (params_.ectn) sent_.assign(static_cast<size_t>(df.num_routers()) * links_, 0);
  if (params_.report_mean)
    means_.assign(df.num_routers(),
                  ContentionCounterMean(params_.mean_start, params_.mean_end, int64_t{df.num_routers()} * df.radix(0)));
}

std::optional<double> ContentionCounterBank::mean() const {
  if (means_.empty()) return std::nullopt;
  int64_t integral = 0;
  for (const ContentionCounterMean& m : means_) integral += m.integral();
  return means_[0].mean_of(integral);
}

bool ContentionCounterBank::per_router() const {
  return !params_.ectn && !params_.hardware.rtl[static_cast<int>(hw::Block::ContentionCounters)] &&
         params_.hardware.trace.empty();
}

void ContentionCounterBank::head_at_front(int r, int min_out, int link, Cycle now) {
  hw::ContentionCounters& b = block(r, now);
  b.increment(min_out);
  if (link >= 0) b.partial_increment(link);
  if (!means_.empty()) means_[r].change(now, +1);
}

void ContentionCounterBank::tail_left(int r, int min_out, int link, Cycle now) {
  hw::ContentionCounters& b = block(r, now);
  b.decrement(min_out);
  if (link >= 0) b.partial_decrement(link);
  if (!means_.empty()) means_[r].change(now, -1);
}

hw::ContentionCounters& ContentionCounterBank::block(int r, Cycle now) {
  if (params_.ectn) run_broadcasts(now);
  tick_until(r, now);
  return *blocks_[r];
}

void ContentionCounterBank::tick_until(int r, Cycle now) {
  if (ticked_[r] < now) {
    blocks_[r]->tick(ticked_[r]);
    ticked_[r] = now;
  }
}

// Called before any event of cycle `now` is registered, so every pending event
// is older than the broadcast or delivery being caught up with. After an idle
// stretch, the broadcasts that were missed would all have sent the same
// arrays: only the last one, and the one before it if its arrays are already
// in use, are performed.
void ContentionCounterBank::run_broadcasts(Cycle now) {
  for (;;) {
    if (delivery_ >= 0 && delivery_ <= now) {
      deliver();
    } else if (next_broadcast_ <= now) {
      const Cycle period = params_.broadcast_period;
      const Cycle t = now - now % period;
      for (int r = 0; r < df_.num_routers(); ++r) {
        tick_until(r, t);
        blocks_[r]->broadcast_partial(&sent_[static_cast<size_t>(r) * links_]);
      }
      if (t - period >= next_broadcast_) {
        delivery_ = t - period + params_.broadcast_delay;
        deliver();
      }
      delivery_ = t + params_.broadcast_delay;
      next_broadcast_ = t + period;
    } else {
      return;
    }
  }
}

void ContentionCounterBank::deliver() {
  const int a = df_.a();
  for (int r = 0; r < df_.num_routers(); ++r) {
    tick_until(r, delivery_);
    const int first = df_.group_of(r) * a, i = df_.index_in_group(r);
    for (int j = 0; j < a; ++j)
      if (j != i) blocks_[r]->receive_partial(j < i ? j : j - 1, &sent_[static_cast<size_t>(first + j) * links_]);
    blocks_[r]->tick(delivery_);  // registers the received arrays (no events are pending)
  }
  delivery_ = -1;
}

}  // namespace ccsim
