// Small bit-width helpers shared by the C++ references of the RTL blocks (tlm/blocks/).
// They reproduce SystemVerilog's $clog2 and fixed-width unsigned arithmetic.
#pragma once

#include <cstdint>

namespace ccsim::blocks {

// $clog2(x): ceil(log2(x)), 0 for x <= 1.
constexpr int clog2(uint64_t x) {
  int n = 0;
  uint64_t v = 1;
  while (v < x) {
    v <<= 1;
    ++n;
  }
  return n;
}

// All-ones value of `width` bits (width <= 64).
constexpr uint64_t ones(int width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

// Pointer/index width as in the RTL: $clog2(n), at least 1.
constexpr int index_width(uint64_t n) { return n > 1 ? clog2(n) : 1; }

// clamp(value + add - sub, 0, max) without wrap-around.
constexpr uint64_t clamp_add_sub(uint64_t value, uint64_t add, uint64_t sub, uint64_t max) {
  uint64_t t = value + add;
  t = t >= sub ? t - sub : 0;
  return t > max ? max : t;
}

}  // namespace ccsim::blocks
