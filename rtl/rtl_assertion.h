// An assertion of an RTL block failed in a verilated model (Verilator --assert).
// The model's Verilator runtime reports it by calling vl_stop(), which this
// project defines (rtl_assertion.cpp, VL_USER_STOP) to record it instead of
// aborting; hw::VModel takes it after the eval and throws this: a testbench or
// a network run in lock-step ends with one line naming the model, the
// assertion's file and line and the cycle (the %Error line Verilator prints
// first names the instance).
#pragma once
#include <stdexcept>
#include <string>

namespace ccsim::hw {

class RtlAssertionFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "file:line" of the first assertion that failed since the last call; "" if none.
std::string take_rtl_assertion_failure();

}  // namespace ccsim::hw
