// The C++ references behind the network's block interfaces, and the choice between them and
// the RTL (tlm/hw/rtl_*.cpp, only in builds with the verilated blocks).
#include "hw/blocks.h"
#include "hw/rtl_blocks.h"

namespace ccsim::hw {

namespace {

class RefContentionDegree final : public ContentionDegree {
 public:
  explicit RefContentionDegree(const blocks::ContentionDegreeUnit::Config& c) : b_(c) {}
  void step(const uint8_t* dcr, int64_t) override { b_.step(dcr); }
  bool congested(int o) const override { return b_.congested(o); }
  bool idle() const override { return b_.idle(); }
  void skip_idle(uint64_t k, int64_t) override { b_.skip_idle(k); }

 private:
  blocks::ContentionDegreeUnit b_;
};

class RefContentionCounters final : public ContentionCounters {
 public:
  explicit RefContentionCounters(const blocks::ContentionCounters::Config& c) : b_(c) {}
  void increment(int o) override { b_.increment(o); }
  void decrement(int o) override { b_.decrement(o); }
  void partial_increment(int l) override { b_.partial_increment(l); }
  void partial_decrement(int l) override { b_.partial_decrement(l); }
  void receive_partial(int r, const uint8_t* v) override { b_.receive_partial(r, v); }
  void tick(int64_t) override { b_.tick(); }
  bool contended(int o) const override { return b_.contended(o); }
  bool combined_contended(int l) const override { return b_.combined_contended(l); }
  void broadcast_partial(uint8_t* out) const override { b_.broadcast_partial(out); }

 private:
  blocks::ContentionCounters b_;
};

class RefTokenThrottler final : public TokenThrottler {
 public:
  explicit RefTokenThrottler(const blocks::TokenThrottler::Config& c) : b_(c) {}
  bool throttle(uint32_t d, uint32_t dt) override { return b_.throttle(d, dt); }
  bool can_inject(uint32_t d, uint32_t f) override { return b_.can_inject(d, f); }
  bool inject(uint32_t d, uint32_t f) override { return b_.inject(d, f); }
  void generated(uint32_t d, uint32_t f) override { b_.generated(d, f); }
  int tick(int64_t) override { return b_.tick(); }
  uint32_t unthrottled(int k) const override { return b_.unthrottled(k); }
  bool is_throttled(uint32_t d) const override { return b_.is_throttled(d); }
  uint32_t throttling_degree(uint32_t d) const override { return b_.throttling_degree(d); }
  int num_throttled() const override { return b_.num_throttled(); }
  uint64_t overflows() const override { return b_.overflows(); }

 private:
  blocks::TokenThrottler b_;
};

class RefLastHopScheduler final : public LastHopScheduler {
 public:
  explicit RefLastHopScheduler(const blocks::LastHopScheduler::Config& c) : b_(c) {}
  void enqueue(int e, uint32_t f) override { b_.enqueue(e, f); }
  void dequeue(int e, uint32_t f) override { b_.dequeue(e, f); }
  bool should_drop(int e) override { return b_.should_drop(e); }
  uint64_t reserve(int e, uint32_t size, uint64_t now) override { return b_.reserve(e, size, now); }
  void tick(int64_t) override { b_.tick(); }

 private:
  blocks::LastHopScheduler b_;
};

}  // namespace

std::unique_ptr<ContentionDegree> make_contention_degree(const blocks::ContentionDegreeUnit::Config& c,
                                                         const Selection& s, const std::string& instance) {
  if (s.use_rtl(Block::ContentionDegree, instance)) return rtl_contention_degree(c, s, instance);
  return std::make_unique<RefContentionDegree>(c);
}

std::unique_ptr<ContentionCounters> make_contention_counters(const blocks::ContentionCounters::Config& c,
                                                             const Selection& s, const std::string& instance) {
  if (s.use_rtl(Block::ContentionCounters, instance)) return rtl_contention_counters(c, s, instance);
  return std::make_unique<RefContentionCounters>(c);
}

std::unique_ptr<TokenThrottler> make_token_throttler(const blocks::TokenThrottler::Config& c, const Selection& s,
                                                     const std::string& instance) {
  if (s.use_rtl(Block::TokenThrottler, instance)) return rtl_token_throttler(c, s, instance);
  return std::make_unique<RefTokenThrottler>(c);
}

std::unique_ptr<LastHopScheduler> make_last_hop_scheduler(const blocks::LastHopScheduler::Config& c, const Selection& s,
                                                          const std::string& instance) {
  if (s.use_rtl(Block::LastHopScheduler, instance)) return rtl_last_hop_scheduler(c, s, instance);
  return std::make_unique<RefLastHopScheduler>(c);
}

}  // namespace ccsim::hw
