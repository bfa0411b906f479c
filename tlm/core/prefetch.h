// Asking the cache for memory ahead of its use: a cycle's state is spread over the network and
// mostly cold, and misses asked for together overlap instead of queueing one behind the other.
#pragma once
#include <cstddef>

namespace ccsim {

// Every cache line of [begin, begin + bytes).
inline void prefetch_lines(const void* begin, size_t bytes) {
  const char* p = static_cast<const char*>(begin);
  for (size_t b = 0; b < bytes; b += 64) __builtin_prefetch(p + b);
}

}  // namespace ccsim
