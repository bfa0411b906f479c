// A channel: fixed-latency delay line, one flit per cycle one way and credits
// back the other way with the same latency. Plain C++ (not sc_signal) so the
// evaluation order of components never changes a result: anything sent at
// cycle t is visible at t + latency >= t + 1.
//
// Parallel phases (sim.threads): the receiver takes flits and credits only in
// the receive phase, when no sender sends; in the forward phase a router may
// still ask whether a credit is ready (occupancy) while the other end sends
// one. That question reads only the time of the next item, an atomic that a
// send sets no earlier than the next cycle: the answer is "no" either way.
#pragma once
#include <atomic>
#include <cassert>
#include <cstdint>

#include "core/fifo.h"
#include "core/packet.h"
#include "core/types.h"

namespace ccsim {

class Component;

class alignas(64) Link {
 public:
  Link(int latency, PortKind kind) : latency_(latency), kind_(kind) { assert(latency >= 1); }

  int latency() const { return latency_; }
  PortKind kind() const { return kind_; }

  // Sender side of the flit direction.
  void send_flit(Cycle now, const Flit& f) {
    assert(last_flit_cycle_ < now && "at most one flit per cycle");
    last_flit_cycle_ = now;
    ++flits_sent_;
    if (flits_.empty()) next_flit_at_.store(now + latency_, std::memory_order_relaxed);
    flits_.push_back({now + latency_, f});
  }
  // The receiver polls every cycle it runs: keep the check on one cache line.
  bool flit_ready(Cycle now) const { return next_flit_at_.load(std::memory_order_relaxed) <= now; }
  Flit take_flit() {
    Flit f = flits_.front().flit;
    flits_.pop_front();
    next_flit_at_.store(flits_.empty() ? kNever : flits_.front().at, std::memory_order_relaxed);
    return f;
  }

  // Receiver side returns credits, one per freed buffer slot.
  void send_credit(Cycle now, int vc) {
    if (credits_.empty()) next_credit_at_.store(now + latency_, std::memory_order_relaxed);
    credits_.push_back({now + latency_, vc});
  }
  bool credit_ready(Cycle now) const { return next_credit_at_.load(std::memory_order_relaxed) <= now; }
  int take_credit() {
    int vc = credits_.front().vc;
    credits_.pop_front();
    next_credit_at_.store(credits_.empty() ? kNever : credits_.front().at, std::memory_order_relaxed);
    return vc;
  }

  // Ask the cache for the flit, or the credit, due by `now`, which its receiver reads next;
  // whether one is due (each end reads only its own direction: the other end may be taking
  // from the other one on another thread).
  bool prefetch_due_flit(Cycle now) const {
    if (!flit_ready(now)) return false;
    __builtin_prefetch(&flits_.front());
    return true;
  }
  bool prefetch_due_credit(Cycle now) const {
    if (!credit_ready(now)) return false;
    __builtin_prefetch(&credits_.front());
    return true;
  }

  // Flits sent since the run began (channel utilization).
  int64_t flits_sent() const { return flits_sent_; }
  size_t flits_in_flight() const { return flits_.size(); }
  size_t credits_in_flight() const { return credits_.size(); }
  int flits_in_flight_on_vc(int vc) const {
    int n = 0;
    for (size_t i = 0; i < flits_.size(); ++i) n += flits_[i].flit.vc == vc;
    return n;
  }
  int credits_in_flight_on_vc(int vc) const {
    int n = 0;
    for (size_t i = 0; i < credits_.size(); ++i) n += credits_[i].vc == vc;
    return n;
  }
  const Flit& flit_in_flight(size_t i) const { return flits_[i].flit; }

  // Who is at each end; set by the network when wiring.
  Component* upstream = nullptr;
  Component* downstream = nullptr;
  int32_t downstream_slot = -1;  // its Scheduler slot (wake-ups)
  int upstream_port = -1, downstream_port = -1;

 private:
  struct TimedFlit {
    Cycle at;
    Flit flit;
  };
  struct TimedCredit {
    Cycle at;
    int vc;
  };
  static constexpr Cycle kNever = INT64_MAX;
  std::atomic<Cycle> next_flit_at_{kNever}, next_credit_at_{kNever};
  int latency_;
  PortKind kind_;
  Cycle last_flit_cycle_ = -1;
  int64_t flits_sent_ = 0;
  Fifo<TimedFlit> flits_;
  Fifo<TimedCredit> credits_;
};

// Router::receive asks for a whole link before reading it: keep it at two cache lines.
static_assert(sizeof(Link) == 128, "a link is two cache lines: its arrival times and flit queue, its credit queue");

}  // namespace ccsim
