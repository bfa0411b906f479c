// The full network: topology, routers, NICs, links, traffic source and the
// mechanisms chosen by the config, as one SystemC module. Network::run()
// advances time cycle by cycle through the activity-driven scheduler, either
// directly (default, fastest) or from a SystemC thread under sc_start
// (`sim.kernel = "systemc"`); both give identical results.
#pragma once
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <systemc>
#include <unordered_map>
#include <vector>

#include "congestion/congestion_control.h"
#include "core/deadlock_recovery.h"
#include "core/link.h"
#include "core/message.h"
#include "core/nic.h"
#include "core/packet.h"
#include "core/channel_stats.h"
#include "core/packet_ledger.h"
#include "core/packet_trace.h"
#include "core/parallel_nics.h"
#include "core/parallel_routers.h"
#include "core/queue_series.h"
#include "core/params.h"
#include "core/router.h"
#include "core/scheduler.h"
#include "core/sim_error.h"
#include "hw/selection.h"
#include "core/run_stats.h"
#include "routing/routing.h"
#include "topology/topology.h"
#include "traffic/motif_engine.h"
#include "traffic/traffic_pattern.h"
#include "traffic/traffic_source.h"

namespace ccsim {

class Network final : public sc_core::sc_module, public ProtocolContext {
 public:
  SC_HAS_PROCESS(Network);
  // `routing` replaces the configured routing function (tests of broken routing).
  Network(sc_core::sc_module_name name, const Config& cfg, std::unique_ptr<RoutingFunction> routing = nullptr);
  ~Network() override;

  // Runs warm-up, measurement and drain; returns the result document.
  nlohmann::json run();

  // Services for routers and NICs.
  Cycle now() const override { return sched_.now(); }
  Scheduler& scheduler() { return sched_; }
  RoutingFunction& routing() { return *routing_; }
  const RoutingFunction& routing() const override { return *routing_; }
  CongestionControl& congestion() { return *cc_; }
  bool cc_switch_hook() const { return cc_switch_hook_; }
  bool cc_arrival_hook() const { return cc_arrival_hook_; }
  bool cc_allocation_hook() const { return cc_allocation_hook_; }
  bool cut_through() const { return cut_through_; }
  int router_latency() const { return router_latency_; }
  // Disha-style recovery (routing.deadlock = "recovery"), or null.
  DeadlockRecovery* recovery() { return recovery_.get(); }
  uint64_t seed() const override { return seed_; }
  const Config& config() const override { return cfg_; }
  const hw::Selection& hardware() const override { return settings_.hardware; }
  const NetworkSettings& settings() const override { return settings_; }
  Router& router(int r) { return *routers_[r]; }
  SwitchView& switch_at(int r) override { return *routers_[r]; }
  Nic& nic(int n) override { return *nics_[n]; }
  Nic& switch_nic(int r) override;
  void wake(Component* timer, Cycle at) override { sched_.wake(timer, at); }
  const Topology& topology() const override { return *topo_; }
  int num_nodes() const { return topo_->num_nodes(); }
  int num_routers() const { return topo_->num_routers(); }

  // Returns the message's slot, to be passed to new_packet.
  PacketLedger::MessageRef new_message(int src, const MessageRequest& req, Cycle now);
  // Data packets a NIC holds before they enter the network (0: no bound), and
  // a message it refused for want of room: offered, never created.
  int64_t source_queue() const { return source_queue_; }
  // traffic.source_order = "messages": an interface sends one message at a time.
  bool one_message_at_a_time() const { return one_message_at_a_time_; }
  void message_refused(const MessageRequest& req, Cycle now);
  Packet* new_packet(PacketLedger::MessageRef msg, int src, const MessageRequest& req, Cycle now);
  // A 1-flit control packet from node `src` to node `dst` on VC class `vc_class`,
  // answering data packet `ref`; the caller hands it to a NIC (or a switch) to send.
  Packet* new_control(PacketKind kind, int src, int dst, int vc_class, const Packet& ref, Cycle now) override;
  // The routing function's notification from switch `router` (RouterContext::send_notification),
  // sent through the switch's NIC like a protocol's switch-made control packets.
  void send_notification(int router, PacketKind kind, int dst, int value, const Packet& ref);
  void deliver(Nic& nic, Packet* p, Cycle now);
  void flit_injected(int64_t flits = 1) { flits_injected_ += flits; }
  void flit_discarded() { ++flits_discarded_; }
  // A switch dropped data packet `p`: it is held until its source takes it
  // back (reclaim). A control packet was consumed by the switch.
  void dropped(Router& at, Packet* p, Cycle now);
  // The source takes back dropped packet `id` (once told of the drop) to send it again.
  Packet* reclaim(uint64_t id) override;
  // Dropped packet `id`, still held.
  const Packet& held(uint64_t id) const override;
  // Queues packet `p` of node `node` again from cycle `at` on, before its
  // destination's other packets.
  void resend(int node, Packet* p, Cycle at, Cycle now) override;
  void flit_ejected(const Packet& p, Cycle now) {
    ++flits_ejected_;
    if (cc_arrival_hook_) cc_->on_eject(p, now);
    stats_->flit_ejected(p, now);
  }
  // The packet trace (sim.trace), or null; a packet's `traced` flag says whether it is in it.
  // The hot paths test tracing() first: an untraced run touches no packet for it.
  PacketTrace* packet_trace() { return trace_.get(); }
  bool tracing() const { return trace_ != nullptr; }
  void count_flit_hops(int64_t hops, Cycle now) {
    flit_hops_ += hops;
    last_progress_ = now;
  }

  // Invariant checks (also run at the end of every run): throws SimError.
  // Flits and credits are conserved, and every packet ever created is
  // delivered exactly once or accounted for: in a buffer, on a link, queued at
  // a NIC, or dropped with a control packet about it in flight or held by the protocol for a
  // resend. A packet in none of these places is an error naming it.
  void check_conservation();

 private:
  void build(const Config& cfg, std::unique_ptr<RoutingFunction> routing);
  void build_traffic(const Config& cfg);
  void cycle_loop();
  void kernel_thread();
  bool in_window(Cycle t) const { return stats_->in_window(t); }
  bool check_deadlock();
  // Nothing is scheduled and no traffic will come, yet packets are undelivered:
  // throws SimError naming one of them and where it waits.
  void check_stall();
  void add_motif_class(const Config& c, int cls, TrafficClassSpec spec, const std::string& where);
  // Every motif has finished: the measured window ends at `now` (at least one cycle long).
  Cycle end_window_at(Cycle now);
  // Where each undelivered packet is, by id ("buffered at router 3", ...).
  PacketPlaces packet_places() const;
  nlohmann::json results(double wall_seconds);

  Config cfg_;
  uint64_t seed_;
  NetworkSettings settings_;
  nlohmann::json hardware_json() const;
  std::unique_ptr<Topology> topo_;
  std::unique_ptr<RoutingFunction> routing_;
  std::unique_ptr<CongestionControl> cc_;
  std::vector<std::unique_ptr<TrafficPattern>> patterns_;
  std::vector<std::unique_ptr<Router>> routers_;
  std::vector<std::unique_ptr<Nic>> nics_;
  std::vector<std::vector<int>> router_nics_;  // per router, its endpoints in increasing id
  bool least_busy_injection_ = false;          // router.switch_injection = "least_busy_endpoint"
  std::vector<std::unique_ptr<Link>> links_;
  std::unique_ptr<TrafficSource> traffic_;
  std::unique_ptr<MotifEngine> motifs_;  // the motif classes (traffic.motif), or null
  Scheduler sched_;
  PacketLedger ledger_;
  int notification_class_ = -1;  // the routing function's own VC class, or -1
  bool cc_switch_hook_ = false;
  bool cc_arrival_hook_ = false;
  bool cc_allocation_hook_ = false;
  bool cut_through_ = true;
  int router_latency_ = 1;
  std::unique_ptr<DeadlockRecovery> recovery_;
  std::unique_ptr<ChannelStats> channel_stats_;  // sim.channel_stats, or null
  std::unique_ptr<QueueSeries> queue_series_;    // sim.queue_series, or null
  std::unique_ptr<PacketTrace> trace_;           // sim.trace, or null
  std::unique_ptr<ParallelRouters> parallel_;    // sim.threads > 1 and nothing in the way, or null
  std::string parallel_obstacle_;                // why sim.threads > 1 keeps the routers on one thread
  std::unique_ptr<ParallelNics> parallel_nics_;  // the NICs on the routers' threads too, or null
  std::string nic_obstacle_;                     // why sim.threads > 1 keeps the NICs on one thread
  // A round of a cycle's batch, split by kind (run_cycle's batch callback).
  void step_batch(const std::vector<Component*>& batch, Cycle now);
  std::vector<Router*> router_batch_;
  std::vector<Nic*> nic_batch_;
  int vcs_per_class_ = 1;
  int max_vct_packet_ = 0;  // largest packet every buffer holds whole
  int64_t source_queue_ = 0;
  bool one_message_at_a_time_ = false;

  Cycle warmup_ = 0, measure_ = 0, drain_cap_ = 0, deadlock_cycles_ = 0;
  bool use_kernel_ = false;
  double load_ = 0;

  int64_t flits_injected_ = 0, flits_ejected_ = 0, flits_discarded_ = 0, flit_hops_ = 0;
  int64_t resends_ = 0;
  Cycle last_progress_ = 0;

  std::unique_ptr<RunStats> stats_;
  nlohmann::json traffic_classes_;  // what each class is, for the results
  bool drain_cap_hit_ = false;
  nlohmann::json deadlock_ = false;
  Cycle end_cycle_ = 0;
};

}  // namespace ccsim
