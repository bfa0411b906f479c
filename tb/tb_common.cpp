#include "tb_common.h"

#include <cstdlib>

namespace ccsim::tb {

uint64_t random_cycles() {
  if (const char* c = std::getenv("CCSIM_TB_CYCLES")) return std::strtoull(c, nullptr, 10);
  if (const char* s = std::getenv("CCSIM_SOAK"); s && std::string(s) == "1") return 1000000;
  return 200000;
}

uint64_t test_seed(const std::string& name) {
  uint64_t h = 1469598103934665603ull;
  for (char c : name) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  if (const char* s = std::getenv("CCSIM_SEED")) h ^= std::strtoull(s, nullptr, 0);
  return h;
}

}  // namespace ccsim::tb
