// The side-band network of ../shared/papers/004 section 3.1 (spec C.4): a
// network separate from the data network that gives every router of a
// k-ary n-cube the global sum of two per-router counters (full VC buffers,
// flits delivered) every g cycles.
//
// Dimension-wise aggregation: in phase d = 0 .. n-1 every router exchanges,
// with its two neighbours of dimension d, the value it started the phase with
// (its own counters in phase 0, its ring's sum of the previous phase after),
// forwarding what it receives one hop further at each step: an all-reduce on
// each bidirectional ring in floor(k/2) steps (on an even ring the antipodal
// value arrives from both sides and counts once). One step is one side-band
// hop of `hop_cycles` cycles. After n phases every router holds the global
// sums, at the same cycle: g = floor(k/2) * hop_cycles * n ("(k/2)*h*n",
// 32 cycles for 004's 16-ary 2-cube with h = 2).
//
// Widths: the counters travel in fields of `count_bits` and `throughput_bits`
// (004: 12 and 13); every sum saturates at the field's maximum, as a hardware
// adder of that width with saturation would. A side-band narrower than the
// word (004's 9-bit option) sends it in ceil(word/width) beats, which adds
// beats - 1 cycles to every hop [ours: 004's technical report is not here].
#pragma once
#include <cstdint>
#include <vector>

#include "core/types.h"

namespace ccsim {

class Torus;

struct SidebandWord {
  uint32_t full = 0;       // full VC buffers
  uint32_t delivered = 0;  // flits delivered
  bool operator==(const SidebandWord& o) const { return full == o.full && delivered == o.delivered; }
};

struct SidebandParams {
  int hop_delay = 2;         // h: cycles per neighbour-to-neighbour hop
  int count_bits = 12;       // full-buffer field
  int throughput_bits = 13;  // delivered-flits field
  int width = 25;            // wires per side-band channel; < count_bits + throughput_bits: several beats
};

class SidebandGather {
 public:
  SidebandGather(const Torus& t, const SidebandParams& p);

  // Cycles of one hop (h plus the extra beats of a narrow side-band).
  int hop_cycles() const { return hop_cycles_; }
  // The gather duration g: cycles from start() to the results.
  Cycle duration() const { return static_cast<Cycle>(steps_per_phase_) * n_ * hop_cycles_; }
  // Starts a gather of `local` (one word per router) at cycle `now`; the
  // previous one must be complete.
  void start(const std::vector<SidebandWord>& local, Cycle now);
  // Performs the hops due by `now`; true in the cycle the gather completes.
  bool advance(Cycle now);
  bool busy() const { return busy_; }
  Cycle started() const { return t0_; }
  // The result at `router` (valid once advance() returned true).
  const SidebandWord& result(int router) const { return acc_[router]; }
  // Words sent on the side-band so far (statistics).
  int64_t words_sent() const { return words_sent_; }

 private:
  SidebandWord add(const SidebandWord& a, const SidebandWord& b) const;
  void hop();  // one step of the current phase, every router at once

  int k_, n_, routers_;
  std::vector<int> stride_;
  int steps_per_phase_;
  int hop_cycles_;
  uint32_t max_full_, max_delivered_;
  bool busy_ = false;
  Cycle t0_ = 0;
  int phase_ = 0, step_ = 0;
  std::vector<SidebandWord> acc_, fwd_plus_, fwd_minus_, next_plus_, next_minus_;
  int64_t words_sent_ = 0;
};

}  // namespace ccsim
