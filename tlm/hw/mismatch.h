// The first difference between a verilated block's outputs and its C++ reference's (cycle,
// signal, index, expected, actual): what the testbenches and lock-step RTL in the loop report.
#pragma once

#include <cstdint>
#include <string>

namespace ccsim::hw {

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

}  // namespace ccsim::hw
