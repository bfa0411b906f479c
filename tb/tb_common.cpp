#include "tb_common.h"

#include <fmt/format.h>

#include <sstream>

namespace ccsim::tb {

Params::Params(const std::string& text) : text_(text) {
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const auto eq = item.find('=');
    if (eq == std::string::npos) continue;
    values_[item.substr(0, eq)] = std::stol(item.substr(eq + 1));
  }
}

long Params::get(const std::string& key, long dflt) const {
  const auto it = values_.find(key);
  return it == values_.end() ? dflt : it->second;
}

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

std::string Mismatch::describe() const {
  if (!found_) return "no mismatch";
  if (index_ < 0) {
    return fmt::format("cycle {}: signal {} expected {} (0x{:x}) actual {} (0x{:x})", cycle_, signal_, expected_,
                       expected_, actual_, actual_);
  }
  return fmt::format("cycle {}: signal {}[{}] expected {} (0x{:x}) actual {} (0x{:x})", cycle_, signal_, index_,
                     expected_, expected_, actual_, actual_);
}

}  // namespace ccsim::tb
