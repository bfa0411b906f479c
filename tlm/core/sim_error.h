// A broken invariant of the model (lost or duplicated packet, credit leak, RTL and reference
// differing in lock step).
#pragma once
#include <stdexcept>

namespace ccsim {

class SimError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ccsim
