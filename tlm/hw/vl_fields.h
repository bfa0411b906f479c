// Field access on verilated ports: the RTL blocks use flat packed vectors, which Verilator maps
// to CData/SData/IData/QData (<= 64 bits) or VlWide<N> (> 64 bits). These helpers read and write
// a `width`-bit field at bit `lsb` of either kind (width <= 64).
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "verilated.h"

namespace ccsim::hw {

inline constexpr uint64_t field_mask(int width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
inline uint64_t get_bits(const T& v, int lsb, int width) {
  return (static_cast<uint64_t>(v) >> lsb) & field_mask(width);
}

template <std::size_t N>
inline uint64_t get_bits(const VlWide<N>& v, int lsb, int width) {
  uint64_t out = 0;
  int done = 0;
  while (done < width) {
    const int bit = lsb + done;
    const int word = bit / 32, off = bit % 32;
    const int take = std::min(32 - off, width - done);
    const uint64_t chunk = (static_cast<uint64_t>(v.m_storage[word]) >> off) & field_mask(take);
    out |= chunk << done;
    done += take;
  }
  return out;
}

template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
inline void set_bits(T& v, int lsb, int width, uint64_t value) {
  const uint64_t m = field_mask(width) << lsb;
  v = static_cast<T>((static_cast<uint64_t>(v) & ~m) | ((value << lsb) & m));
}

template <std::size_t N>
inline void set_bits(VlWide<N>& v, int lsb, int width, uint64_t value) {
  int done = 0;
  while (done < width) {
    const int bit = lsb + done;
    const int word = bit / 32, off = bit % 32;
    const int take = std::min(32 - off, width - done);
    const uint32_t m = static_cast<uint32_t>(field_mask(take) << off);
    const uint32_t chunk = static_cast<uint32_t>(((value >> done) & field_mask(take)) << off);
    v.m_storage[word] = (v.m_storage[word] & ~m) | chunk;
    done += take;
  }
}

}  // namespace ccsim::hw
