// Shared pieces of the RTL-vs-reference testbenches (tb/): parameter strings, run length and
// seeds from the environment, a lock-step clock driver for verilated models with optional VCD,
// and the first-mismatch recorder (cycle, signal, expected, actual).
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>

#include "verilated.h"
#include "verilated_vcd_c.h"
#include "vl_fields.h"

namespace ccsim::tb {

// "Radix=15,NumSamples=100" -> lookup with defaults (the RTL defaults live in the references'
// Config structs, which mirror the RTL parameter defaults).
class Params {
 public:
  explicit Params(const std::string& text);
  long get(const std::string& key, long dflt) const;
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  std::map<std::string, long> values_;
};

// Random cycles per block and parameter set: CCSIM_TB_CYCLES if set, else 1,000,000 with
// CCSIM_SOAK=1, else 200,000.
uint64_t random_cycles();
// Deterministic seed per test: FNV-1a of the name, xor CCSIM_SEED if set.
uint64_t test_seed(const std::string& name);

// Mean wall time of fn(i) for i in [0, n), in ns (for the reference-vs-RTL speed figures).
template <class Fn>
double time_per_call_ns(uint64_t n, Fn&& fn) {
  const auto t0 = std::chrono::steady_clock::now();
  for (uint64_t i = 0; i < n; ++i) fn(i);
  const auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(n);
}

// Small fast deterministic RNG (xoshiro256**, seeded by splitmix64) for stimulus.
class Rng {
 public:
  explicit Rng(uint64_t seed) {
    for (auto& w : s_) {
      seed += 0x9e3779b97f4a7c15ull;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      w = z ^ (z >> 31);
    }
  }
  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, n) (n > 0; tiny modulo bias is irrelevant for stimulus).
  uint64_t below(uint64_t n) { return next() % n; }
  // Uniform in [lo, hi].
  uint64_t range(uint64_t lo, uint64_t hi) { return lo + below(hi - lo + 1); }
  // True with probability num/den.
  bool chance(uint64_t num, uint64_t den) { return below(den) < num; }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

// Result of a lock-step run.
struct RunResult {
  bool mismatch = false;
  std::string message;  // mismatch description incl. seed and parameters
  uint64_t cycles = 0;  // cycles compared
  uint64_t events = 0;  // block-specific count of interesting events (coverage)
};

// First mismatch between RTL and reference outputs.
class Mismatch {
 public:
  bool found() const { return found_; }
  // Compare one field; records only the first difference. Cheap when equal.
  bool eq(uint64_t cycle, const char* signal, int index, uint64_t expected, uint64_t actual) {
    if (expected == actual || found_) return expected == actual;
    found_ = true;
    cycle_ = cycle;
    signal_ = signal;
    index_ = index;
    expected_ = expected;
    actual_ = actual;
    return false;
  }
  std::string describe() const;  // "cycle N: signal[i] expected E actual A"

 private:
  bool found_ = false;
  uint64_t cycle_ = 0;
  const char* signal_ = "";
  int index_ = -1;
  uint64_t expected_ = 0, actual_ = 0;
};

// A verilated model with clk_i / rst_ni, clocked in lock step with a reference model.
// Cycle protocol: inputs are set while clk_i = 0, eval() settles combinational outputs
// (compare them now), then rise() makes the clock edge.
template <class Model>
class Dut {
 public:
  explicit Dut(const std::string& vcd_path = "") : ctx_(std::make_unique<VerilatedContext>()) {
    if (!vcd_path.empty()) ctx_->traceEverOn(true);
    model_ = std::make_unique<Model>(ctx_.get(), "TOP");
    if (!vcd_path.empty()) {
      vcd_ = std::make_unique<VerilatedVcdC>();
      model_->trace(vcd_.get(), 99);
      vcd_->open(vcd_path.c_str());
    }
    model_->clk_i = 0;
    model_->rst_ni = 1;
  }
  ~Dut() {
    if (vcd_) vcd_->close();
    model_->final();
  }
  Model& m() { return *model_; }
  // Settle with clk_i low (after setting inputs).
  void eval() {
    model_->clk_i = 0;
    model_->eval();
  }
  // Rising edge. The VCD gets the settled values just before the edge (time t) and the
  // registered values after it (t + 5); one clock period is 10 time units.
  void rise() {
    if (vcd_) vcd_->dump(time_);
    model_->clk_i = 1;
    model_->eval();
    if (vcd_) vcd_->dump(time_ + 5);
    time_ += 10;
  }
  // Asynchronous active-low reset pulse spanning one clock edge.
  void reset() {
    model_->rst_ni = 0;
    eval();
    rise();
    model_->rst_ni = 1;
    eval();
  }
  uint64_t time() const { return time_; }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> model_;
  std::unique_ptr<VerilatedVcdC> vcd_;
  uint64_t time_ = 0;
};

}  // namespace ccsim::tb
