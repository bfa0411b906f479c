// Basic types shared by the whole network model.
#pragma once
#include <cstdint>

namespace ccsim {

using Cycle = int64_t;  // simulated time; one cycle moves one flit per channel

// What a router port connects to; routing and statistics key off it.
enum class PortKind : uint8_t { Terminal, Local, Global };

inline const char* to_string(PortKind k) {
  switch (k) {
    case PortKind::Terminal:
      return "terminal";
    case PortKind::Local:
      return "local";
    case PortKind::Global:
      return "global";
  }
  return "?";
}

}  // namespace ccsim
