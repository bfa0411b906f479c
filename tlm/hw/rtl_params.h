// A verilated model's parameter string ("Radix=15,NumSamples=100", as given to Verilator with -G
// in rtl/CMakeLists.txt) read back, so the C++ reference is configured exactly as the RTL.
#pragma once

#include <map>
#include <string>

namespace ccsim::hw {

class Params {
 public:
  explicit Params(const std::string& text);
  // The value of `key`, or `dflt` (the RTL default, mirrored by the references' Config structs).
  long get(const std::string& key, long dflt) const;
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  std::map<std::string, long> values_;
};

}  // namespace ccsim::hw
