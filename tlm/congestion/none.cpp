#include "congestion/none.h"

#include "registry.h"

namespace ccsim {

ProtocolEntry none_protocol_entry() {
  return ProtocolEntry{
      "none",
      "no congestion control; with acks, every data packet is acknowledged on a high-priority class (003)",
      {bool_param("congestion.acks", false, "return a 1-flit ACK for every data packet (003's baseline)")},
      [](const Config& c) { return std::make_unique<NoCongestionControl>(c.get_bool("congestion.acks")); }};
}

}  // namespace ccsim
