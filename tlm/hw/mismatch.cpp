#include "hw/mismatch.h"

#include <fmt/format.h>

namespace ccsim::hw {

std::string Mismatch::describe() const {
  if (!found_) return "no mismatch";
  if (index_ < 0) {
    return fmt::format("cycle {}: signal {} expected {} (0x{:x}) actual {} (0x{:x})", cycle_, signal_, expected_,
                       expected_, actual_, actual_);
  }
  return fmt::format("cycle {}: signal {}[{}] expected {} (0x{:x}) actual {} (0x{:x})", cycle_, signal_, index_,
                     expected_, expected_, actual_, actual_);
}

}  // namespace ccsim::hw
