// What a traffic source hands to a NIC through TLM-2.0: the payload's data
// pointer carries one of these; the payload's address is the destination node.
#pragma once
#include <cstdint>

namespace ccsim {

struct MessageRequest {
  int32_t dst = -1;
  int32_t packets = 1;      // message size in packets
  int32_t packet_size = 1;  // flits per packet
  int16_t traffic_class = 0;
  int64_t tag = -1;  // a motif's message (MotifEngine): handed back when it has arrived; -1: none
};

}  // namespace ccsim
