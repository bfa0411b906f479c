// Shared pieces of the RTL-vs-reference testbenches (tb/): run length and seeds from the
// environment, timing, and the result of a random lock-step run. The clocked-model driver
// (hw::VModel), parameter strings and the mismatch recorder are the product's (tlm/hw/).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/rng.h"
#include "hw/mismatch.h"
#include "hw/rtl_params.h"
#include "hw/vl_fields.h"
#include "hw/vmodel.h"

namespace ccsim::tb {

// The port-binding vocabulary shared with RTL in the loop (tlm/hw/); stimulus draws from
// ccsim::Rng, the simulator's generator.
using hw::field_mask;
using hw::get_bits;
using hw::Mismatch;
using hw::Params;
using hw::set_bits;

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

// Result of a lock-step run.
struct RunResult {
  bool mismatch = false;
  std::string message;  // mismatch description incl. seed and parameters
  uint64_t cycles = 0;  // cycles compared
  uint64_t events = 0;  // block-specific count of interesting events (coverage)
  // Named cover points: cycles in which each corner was reached.
  std::map<std::string, uint64_t> cover;
};

// A reset asserted between clock edges, on the model and the reference: being asynchronous it
// shows at the outputs at once, with no edge. `outputs_match()` evaluates the reference and
// compares the outputs; on a match the reset is released and true returned.
template <class Dut, class Ref, class Check>
bool reset_between_edges(Dut& dut, Ref& ref, Check&& outputs_match) {
  dut.hold_reset();
  ref.reset();
  if (!outputs_match()) return false;
  dut.release_reset();
  return true;
}

// The cover points of run `r` never hit, comma-separated ("" when all were), skipping those a
// parameter set cannot reach (`unreachable`).
inline std::string unhit_cover(const RunResult& r, const std::vector<std::string>& unreachable = {}) {
  std::string unhit;
  for (const auto& [point, hits] : r.cover)
    if (hits == 0 && std::find(unreachable.begin(), unreachable.end(), point) == unreachable.end())
      unhit += (unhit.empty() ? "" : ", ") + point;
  return unhit;
}

// Prints a run's cover points ("[ <tag> ] cover "point": N cycles").
inline void print_cover(const std::string& tag, const RunResult& r) {
  for (const auto& [point, hits] : r.cover)
    std::printf("[ %s ] cover \"%s\": %llu cycles\n", tag.c_str(), point.c_str(),
                static_cast<unsigned long long>(hits));
}

}  // namespace ccsim::tb
