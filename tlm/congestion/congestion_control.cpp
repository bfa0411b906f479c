#include "congestion/congestion_control.h"

#include "congestion/protocol_context.h"

namespace ccsim {

void CongestionControl::send_ack(NicView& at, const Packet& data, int vc_class, uint32_t flags, Cycle now) {
  Packet* ack = net_->new_control(kAckPacket, data.dst, data.src, vc_class, data, now);
  ack->cc_flags = flags;
  at.send_control(ack, now);
}

}  // namespace ccsim
