// The network's view of the four hardware blocks: the calls the router, NIC, routing and
// congestion code make, implemented either by the C++ reference (tlm/blocks/, below) or by the
// verilated RTL (tlm/hw/rtl_*.cpp, RTL in the loop). Both give bit-identical results; `make_*`
// picks one per instance from the [hardware] selection.
//
// Every block registers its inputs at a clock edge, tick(cycle) / step(.., cycle), where `cycle`
// is the network cycle whose inputs are registered (for VCD time and lock-step messages). The
// owners tick lazily (once per cycle in which a block is used; idle cycles that change nothing
// are not ticked), the same calls for both implementations.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "blocks/contention_counters.h"
#include "blocks/contention_degree_unit.h"
#include "blocks/last_hop_scheduler.h"
#include "blocks/token_throttler.h"
#include "hw/selection.h"

namespace ccsim::hw {

// CBCM contention-degree unit (one per router, all outputs).
class ContentionDegree {
 public:
  virtual ~ContentionDegree() = default;
  virtual void step(const uint8_t* dcr, int64_t cycle) = 0;  // this cycle's D_cr of every output
  virtual bool congested(int o) const = 0;
  // Idle: only zero samples held; then skip_idle(k) = k steps of zeros from cycle `first`.
  virtual bool idle() const = 0;
  virtual void skip_idle(uint64_t k, int64_t first) = 0;
};

// Contention counters of Base/Hybrid/ECtN (one per router).
class ContentionCounters {
 public:
  virtual ~ContentionCounters() = default;
  virtual void increment(int min_out) = 0;
  virtual void decrement(int min_out) = 0;
  virtual void partial_increment(int link) = 0;
  virtual void partial_decrement(int link) = 0;
  virtual void receive_partial(int router, const uint8_t* values) = 0;
  virtual void tick(int64_t cycle) = 0;
  virtual bool contended(int o) const = 0;
  virtual bool combined_contended(int link) const = 0;
  virtual void broadcast_partial(uint8_t* out) const = 0;
};

// CBCM token throttler (one per NIC).
class TokenThrottler {
 public:
  virtual ~TokenThrottler() = default;
  virtual bool throttle(uint32_t dest, uint32_t dt) = 0;
  virtual bool can_inject(uint32_t dest, uint32_t flits) = 0;
  virtual bool inject(uint32_t dest, uint32_t flits) = 0;
  virtual void generated(uint32_t dest, uint32_t flits) = 0;
  virtual int tick(int64_t cycle) = 0;  // number of unthrottle events of the cycle
  virtual uint32_t unthrottled(int k) const = 0;
  virtual bool is_throttled(uint32_t dest) const = 0;
  virtual uint32_t throttling_degree(uint32_t dest) const = 0;
  virtual int num_throttled() const = 0;
  virtual uint64_t overflows() const = 0;
};

// Last-hop reservation scheduler (one per LHRP switch, one per SRP endpoint).
class LastHopScheduler {
 public:
  virtual ~LastHopScheduler() = default;
  virtual void enqueue(int e, uint32_t flits) = 0;
  virtual void dequeue(int e, uint32_t flits) = 0;
  virtual bool should_drop(int e) = 0;
  virtual uint64_t reserve(int e, uint32_t size, uint64_t now) = 0;
  virtual void tick(int64_t cycle) = 0;
};

// One block for one instance ("router:3", "nic:12"): the reference, or the RTL if the selection
// says so (ConfigError if no verilated model has the configuration's parameters).
std::unique_ptr<ContentionDegree> make_contention_degree(const blocks::ContentionDegreeUnit::Config& c,
                                                         const Selection& s, const std::string& instance);
std::unique_ptr<ContentionCounters> make_contention_counters(const blocks::ContentionCounters::Config& c,
                                                             const Selection& s, const std::string& instance);
std::unique_ptr<TokenThrottler> make_token_throttler(const blocks::TokenThrottler::Config& c, const Selection& s,
                                                     const std::string& instance);
std::unique_ptr<LastHopScheduler> make_last_hop_scheduler(const blocks::LastHopScheduler::Config& c, const Selection& s,
                                                          const std::string& instance);

}  // namespace ccsim::hw
