// What a congestion-control protocol may see and do, and nothing more: at a
// switch (SwitchView), at a NIC (NicView) and in the network as a whole
// (ProtocolContext). The network model implements them (Router, Nic,
// Network); a protocol's unit test may implement them with fakes, without
// building a network. Routing functions have the same kind of seam in
// RouterContext (routing/routing.h).
#pragma once
#include <cstdint>
#include <type_traits>

#include "core/packet.h"
#include "core/params.h"
#include "core/rng.h"
#include "core/scheduler.h"
#include "core/settings.h"
#include "core/types.h"
#include "hw/selection.h"
#include "topology/topology.h"

namespace ccsim {

class RoutingFunction;

// A callable reference for per-request visits without allocation.
template <typename Signature>
class FunctionRef;
template <typename R, typename... Args>
class FunctionRef<R(Args...)> {
 public:
  // `f` must outlive the call it is passed to (a lambda argument does).
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, FunctionRef>>>
  FunctionRef(F&& f)
      : obj_(const_cast<void*>(static_cast<const void*>(&f))),
        call_([](void* o, Args... a) -> R { return (*static_cast<std::remove_reference_t<F>*>(o))(a...); }) {}
  R operator()(Args... a) const { return call_(obj_, a...); }

 private:
  void* obj_;
  R (*call_)(void*, Args...);
};

class SwitchView {
 public:
  virtual ~SwitchView() = default;
  virtual int id() const = 0;
  virtual int radix() const = 0;
  virtual int num_vcs() const = 0;  // physical VCs per port, all classes
  virtual PortKind port_kind(int port) const = 0;
  // Input buffers: depth per VC of `port` (0: unconnected), flits in one VC, in all VCs.
  virtual int input_depth(int port) const = 0;
  virtual int input_flits(int port, int vc) const = 0;
  virtual int input_queue_flits(int port) const = 0;
  // Flits in the output queues of `port`, all VCs.
  virtual int output_queue_flits(int port) const = 0;
  // Output VC `vc` of `port` is free: no packet holds it, its output queue and
  // its downstream buffer are empty (ALO's "drained" channel state).
  virtual bool output_vc_free(int port, int vc) = 0;
  // A packet holds output VC `vc` of `port` (its tail has not crossed the switch).
  virtual bool output_vc_held(int port, int vc) const = 0;
  // The VC-allocation requests of cycle `now`: for the front packet of every
  // input VC that is routed and past its pipeline delay, f(in_port, vc,
  // out_port, packet, has_vc), in increasing input-port order (CBCM's degree).
  // The switch's random stream (QCN's congestion points draw from it).
  virtual Rng& rng() = 0;
  using RequestVisitor = FunctionRef<void(int, int, int, const Packet&, bool)>;
  virtual void visit_requests(Cycle now, RequestVisitor f) const = 0;
};

class NicView {
 public:
  virtual ~NicView() = default;
  virtual int id() const = 0;
  // Credits of injection VC `vc` (room in the router's input buffer).
  virtual int credits(int vc) const = 0;
  // Sends control packet `p` (ahead of data packets, in order).
  virtual void send_control(Packet* p, Cycle now) = 0;
};

class ProtocolContext {
 public:
  virtual ~ProtocolContext() = default;
  virtual const Config& config() const = 0;
  // Derived settings (buffer depths, latencies, switching, window, hardware).
  virtual const NetworkSettings& settings() const = 0;
  virtual const Topology& topology() const = 0;
  virtual const RoutingFunction& routing() const = 0;
  // Reference or RTL for each hardware block ([hardware]).
  virtual const hw::Selection& hardware() const = 0;
  virtual uint64_t seed() const = 0;
  virtual Cycle now() const = 0;
  int num_nodes() const { return topology().num_nodes(); }
  int num_routers() const { return topology().num_routers(); }

  virtual SwitchView& switch_at(int router) = 0;
  virtual NicView& nic(int node) = 0;
  // The NIC through which switch `router` injects the control packets it makes
  // (NACKs, grants): that of its first endpoint, whose injection channel it shares.
  virtual NicView& switch_nic(int router) = 0;
  // Steps `timer` (a protocol's own clocked part) in cycle `at`.
  virtual void wake(Component* timer, Cycle at) = 0;

  // The packet ledger. A 1-flit control packet from node `src` to node `dst`
  // on VC class `vc_class`, answering data packet `ref`; the caller sends it.
  virtual Packet* new_control(PacketKind kind, int src, int dst, int vc_class, const Packet& ref, Cycle now) = 0;
  // The source takes back dropped packet `id` (after its NACK) to send it again.
  virtual Packet* reclaim(uint64_t id) = 0;
  // Dropped packet `id`, still held.
  virtual const Packet& held(uint64_t id) const = 0;
  // Queues packet `p` of node `node` again from cycle `at` on, before its
  // destination's other packets.
  virtual void resend(int node, Packet* p, Cycle at, Cycle now) = 0;
};

}  // namespace ccsim
