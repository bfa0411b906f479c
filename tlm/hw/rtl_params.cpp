#include "hw/rtl_params.h"

#include <sstream>

namespace ccsim::hw {

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

}  // namespace ccsim::hw
