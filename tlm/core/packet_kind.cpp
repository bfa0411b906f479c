#include <stdexcept>

#include "core/packet.h"

namespace ccsim {

namespace {
// Function-local, so that protocols may declare their kinds during static
// initialization in any order.
std::vector<std::string>& names() {
  static std::vector<std::string> v{"data"};
  return v;
}
}  // namespace

PacketKind declare_packet_kind(const std::string& name) {
  auto& v = names();
  for (size_t k = 0; k < v.size(); ++k)
    if (v[k] == name) return static_cast<PacketKind>(k);
  if (v.size() > 255) throw std::logic_error("more than 256 packet kinds");
  v.push_back(name);
  return static_cast<PacketKind>(v.size() - 1);
}

const std::vector<std::string>& packet_kind_names() { return names(); }

}  // namespace ccsim
