// Small, fast, seedable PRNG (xoshiro256**). One stream per component keeps runs
// deterministic whatever order components are stepped in.
#pragma once
#include <cassert>
#include <cmath>
#include <cstdint>

namespace ccsim {

class Rng {
 public:
  explicit Rng(uint64_t seed = 1) { reseed(seed); }

  // Derives an independent stream from a run seed and a component identity.
  static uint64_t derive(uint64_t seed, uint64_t kind, uint64_t id) {
    uint64_t x = seed ^ (kind * 0x9E3779B97F4A7C15ULL) ^ (id * 0xBF58476D1CE4E5B9ULL);
    return splitmix(x);
  }

  void reseed(uint64_t seed) {
    uint64_t x = seed;
    for (auto& s : s_) s = splitmix(x);
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

  // Uniform integer in [0, n), n > 0 (Lemire's multiply-shift; bias < 2^-32 for our n).
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(((next() >> 32) * static_cast<uint64_t>(n)) >> 32); }

  // Uniform integer in [lo, hi], hi - lo < 2^32 - 1.
  uint64_t range(uint64_t lo, uint64_t hi) {
    assert(hi >= lo && hi - lo < 0xffffffffULL);
    return lo + below(static_cast<uint32_t>(hi - lo + 1));
  }

  // True with probability num / den.
  bool chance(uint32_t num, uint32_t den) { return below(den) < num; }

  // Uniform double in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  bool bernoulli(double p) { return uniform() < p; }

  // Trials until the first success of a Bernoulli(p) process, >= 1: the gap
  // between events of a per-cycle Bernoulli process, drawn in O(1).
  int64_t geometric(double p) {
    if (p >= 1.0) return 1;
    double u = 1.0 - uniform();  // (0, 1]
    return 1 + static_cast<int64_t>(std::floor(std::log(u) / std::log1p(-p)));
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static uint64_t splitmix(uint64_t& x) {
    uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  uint64_t s_[4];
};

}  // namespace ccsim
