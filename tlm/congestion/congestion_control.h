// Congestion control: one object per network with hooks at the source NIC, in
// every switch and at the destination NIC. A protocol also declares the
// priority classes of VCs it needs (data, ACK, control, speculative, ...);
// routers arbitrate classes by priority and give each class its own VCs.
#pragma once
#include <string>
#include <vector>

#include "core/packet.h"
#include "core/types.h"

namespace ccsim {

class Nic;
class Router;

struct VcClass {
  std::string name;
  int priority = 0;  // higher wins in VC and switch allocation
};

class CongestionControl {
 public:
  virtual ~CongestionControl() = default;
  // Class 0 is always the data class.
  virtual std::vector<VcClass> vc_classes() const { return {{"data", 0}}; }
  // Source: may the NIC start this packet now? (rate limits, tokens, gates)
  virtual bool may_inject(Nic&, const Packet&, Cycle) { return true; }
  // Source: the packet's head is about to leave the NIC.
  virtual void on_inject(Nic&, Packet&, Cycle) {}
  // Switch: the packet's head leaves `router` through `out_port`.
  virtual void on_switch_forward(Router&, Packet&, int /*out_port*/, Cycle) {}
  // Destination: the packet's tail reached its NIC.
  virtual void on_deliver(Nic&, Packet&, Cycle) {}
  // Switch hooks cost a virtual call per packet-hop; protocols without any skip them.
  virtual bool has_switch_hook() const { return false; }
};

}  // namespace ccsim
