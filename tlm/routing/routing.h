// Routing functions: one object per network, called once per packet per hop
// when the packet's head is routed. A routing function returns the output port
// and the VC slot; the router maps a slot to its physical VCs (slot, slot+K,
// slot+2K, ... below the configured VC count, K = vc_slots()). VC slots are how
// each algorithm keeps its channel dependency graph acyclic.
#pragma once
#include <cstdint>

#include "core/packet.h"
#include "core/rng.h"

namespace ccsim {

// What a routing function may ask of the router it runs in.
class RouterContext {
 public:
  virtual ~RouterContext() = default;
  virtual int router_id() const = 0;
  // Flits queued towards `port` on this router: output queue plus the
  // downstream buffer occupancy known from credits (data VCs).
  virtual int occupancy(int port) = 0;
  // The same figure for any router: global knowledge, used by UGAL-G.
  virtual int remote_occupancy(int router, int port) = 0;
  virtual Rng& rng() = 0;
};

struct RouteResult {
  int port = -1;
  int slot = 0;  // VC slot within the packet's VC class
};

class RoutingFunction {
 public:
  virtual ~RoutingFunction() = default;
  // Routes the head of `p` at the router of `ctx`, arrived on `in_port`.
  // Updates p's routing state for the hop it is about to take.
  virtual RouteResult route(RouterContext& ctx, int in_port, Packet& p) = 0;
  // VC slots per port this algorithm needs for deadlock freedom.
  virtual int vc_slots() const = 0;
};

}  // namespace ccsim
