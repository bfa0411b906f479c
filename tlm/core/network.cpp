#include "core/network.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <set>

#include "core/progress.h"
#include "registry.h"
#include "traffic/motif_setup.h"
#include "traffic/node_set.h"

namespace ccsim {

namespace {

double peak_rss_mb() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  return 0;
}

// CPU time of the process, every thread's (core-seconds): wall time overstates a run's
// cost when other jobs share the cores.
double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

int max_latency(const Config& c) {
  return static_cast<int>(std::max(
      {c.get_int("links.terminal_latency"), c.get_int("links.local_latency"), c.get_int("links.global_latency")}));
}

}  // namespace

Network::Network(sc_core::sc_module_name name, const Config& cfg, std::unique_ptr<RoutingFunction> routing)
    : sc_core::sc_module(name),
      cfg_(cfg),
      seed_(static_cast<uint64_t>(cfg.get_int("sim.seed"))),
      settings_(NetworkSettings::from_config(cfg)),
      sched_(max_latency(cfg) + static_cast<int>(cfg.get_int("router.latency")) + 2) {
  build(cfg, std::move(routing));
  build_traffic(cfg);
  if (cfg.get_int("sim.threads") > 1) {
    parallel_obstacle_ = ParallelRouters::obstacle(cfg, *routing_, *cc_, trace_ != nullptr);
    if (parallel_obstacle_.empty())
      parallel_ = std::make_unique<ParallelRouters>(static_cast<int>(cfg.get_int("sim.threads")), routers_);
    nic_obstacle_ =
        parallel_ ? ParallelNics::obstacle(cfg, *cc_, motifs_ != nullptr) : "the routers step on one thread";
    if (nic_obstacle_.empty()) {
      std::vector<Nic*> nics;
      for (auto& n : nics_) nics.push_back(n.get());
      parallel_nics_ = std::make_unique<ParallelNics>(parallel_->team(), nics);
    }
  }
  use_kernel_ = cfg.get_string("sim.kernel") == "systemc";
  if (use_kernel_) SC_THREAD(kernel_thread);
}

Network::~Network() = default;

void Network::build(const Config& cfg, std::unique_ptr<RoutingFunction> routing) {
  const std::string kind = cfg.get_string("topology.kind");
  topo_ = find_topology(kind).make(cfg);
  topo_->terminal_latency = settings_.latency(PortKind::Terminal);
  topo_->local_latency = settings_.latency(PortKind::Local);
  topo_->global_latency = settings_.latency(PortKind::Global);
  routing_ = routing ? std::move(routing) : find_routing(kind, cfg.get_string("routing.algorithm")).make(cfg, *topo_);
  cc_ = find_protocol(cfg.get_string("congestion.protocol")).make(cfg);
  cc_->attach(*this);
  cc_switch_hook_ = cc_->has_switch_hook();
  cc_arrival_hook_ = cc_->has_arrival_hook();
  cc_allocation_hook_ = cc_->has_allocation_hook();
  cut_through_ = settings_.cut_through;
  router_latency_ = settings_.router_latency;
  if (cfg.get_string("routing.deadlock") == "recovery") {
    recovery_ = std::make_unique<DeadlockRecovery>(*this, cfg.get_int("routing.deadlock_timeout"));
  } else if (routing_->needs_recovery()) {
    throw ConfigError("routing.deadlock",
                      fmt::format("routing \"{}\" can deadlock: needs \"recovery\", got \"{}\"",
                                  cfg.get_string("routing.algorithm"), cfg.get_string("routing.deadlock")));
  }

  warmup_ = settings_.warmup;
  measure_ = settings_.measure;
  drain_cap_ = cfg.get_int("sim.drain_cap");
  if (drain_cap_ == 0) drain_cap_ = 4 * measure_;
  deadlock_cycles_ = cfg.get_int("sim.deadlock_cycles");

  const int slots = routing_->vc_slots();
  vcs_per_class_ = settings_.vcs_per_class;
  if (vcs_per_class_ < slots)
    throw ConfigError("router.vcs", fmt::format("routing \"{}\" on {} needs at least {} VCs per class, got {}",
                                                cfg.get_string("routing.algorithm"), kind, slots, vcs_per_class_));
  RouterParams rp;
  rp.latency = settings_.router_latency;
  rp.speedup = static_cast<int>(cfg.get_int("router.speedup"));
  rp.cut_through = cut_through_;
  rp.voq = cfg.get_bool("router.voq");
  rp.output_buffer = settings_.output_buffer;
  rp.occupancy_downstream = cfg.get_string("router.occupancy") == "downstream";
  const std::string va = cfg.get_string("router.va_arbiter");
  rp.va_round_robin = va != "rotating";
  rp.va_transit_priority = va == "transit_priority";
  rp.vcs_per_class = vcs_per_class_;
  rp.vc_slots = slots;
  for (auto& c : cc_->vc_classes()) rp.class_priority.push_back(c.priority);
  if (routing_->sends_notifications()) {
    notification_class_ = static_cast<int>(rp.class_priority.size());
    rp.class_priority.push_back(2);  // ahead of data, as 001's CNMs on the top class of service
  }
  const int num_vcs = vcs_per_class_ * static_cast<int>(rp.class_priority.size());

  const int depth = settings_.depth(PortKind::Terminal);
  const int local_depth = settings_.depth(PortKind::Local), global_depth = settings_.depth(PortKind::Global);
  auto depth_of = [&](PortKind k) { return settings_.depth(k); };

  const int packet_size = static_cast<int>(cfg.get_int("traffic.packet_size"));
  max_vct_packet_ = std::min({rp.output_buffer, depth, local_depth, global_depth});
  if (cut_through_) {
    if (rp.output_buffer < packet_size)
      throw ConfigError("router.output_buffer",
                        fmt::format("must hold a whole packet under cut-through (>= traffic.packet_size = {}), got {}",
                                    packet_size, rp.output_buffer));
    if (std::min({depth, local_depth, global_depth}) < packet_size)
      throw ConfigError(
          "router.buffer_depth",
          fmt::format("input buffers must hold a whole packet under cut-through (>= {} flits)", packet_size));
  }
  if (rp.voq && topo_->radix(0) > 64) throw ConfigError("router.voq", "supported up to radix 64");

  const int R = topo_->num_routers(), N = topo_->num_nodes();
  for (int r = 0; r < R; ++r)
    routers_.push_back(std::make_unique<Router>(fmt::format("router_{}", r).c_str(), r, topo_->radix(r), rp, this));
  for (int n = 0; n < N; ++n) nics_.push_back(std::make_unique<Nic>(fmt::format("nic_{}", n).c_str(), n, this));
  // A link's far end and its scheduler slot (the link's wake-ups go by slot).
  auto lead_to = [this](Link* l, Component* c) {
    l->downstream = c;
    l->downstream_slot = sched_.enroll(c);
  };
  router_nics_.assign(R, {});
  for (int n = 0; n < N; ++n) router_nics_[topo_->node_router(n)].push_back(n);
  least_busy_injection_ = cfg.get_string("router.switch_injection") == "least_busy_endpoint";

  // One link per router output port; the peer's matching output leads back.
  std::vector<std::vector<Link*>> out_link(R), to_router(R);
  std::vector<Link*> nic_out(N, nullptr);
  for (int r = 0; r < R; ++r) {
    out_link[r].assign(topo_->radix(r), nullptr);
    to_router[r].assign(topo_->radix(r), nullptr);
    for (int o = 0; o < topo_->radix(r); ++o) {
      PortPeer pp = topo_->peer(r, o);
      if (pp.id < 0) continue;  // unconnected
      const PortKind k = topo_->port_kind(r, o);
      links_.push_back(std::make_unique<Link>(topo_->latency(k), k));
      Link* l = links_.back().get();
      l->upstream = routers_[r].get();
      l->upstream_port = o;
      out_link[r][o] = l;
      if (pp.is_node) {
        lead_to(l, nics_[pp.id].get());
        links_.push_back(std::make_unique<Link>(topo_->latency(k), k));
        Link* in = links_.back().get();
        in->upstream = nics_[pp.id].get();
        lead_to(in, routers_[r].get());
        in->downstream_port = o;
        to_router[r][o] = in;
        nic_out[pp.id] = in;
        nics_[pp.id]->connect(in, depth, num_vcs, vcs_per_class_, l);
      } else {
        lead_to(l, routers_[pp.id].get());
        l->downstream_port = pp.port;
      }
    }
  }
  for (int r = 0; r < R; ++r)
    for (int o = 0; o < topo_->radix(r); ++o) {
      PortPeer pp = topo_->peer(r, o);
      if (pp.id < 0) continue;
      const PortKind k = topo_->port_kind(r, o);
      Link* in = pp.is_node ? to_router[r][o] : out_link[pp.id][pp.port];
      routers_[r]->connect(o, k, in, depth_of(k), out_link[r][o], pp.is_node ? depth : depth_of(k));
    }
  for (int n = 0; n < N; ++n)
    if (!nic_out[n]) throw ConfigError("topology.kind", fmt::format("node {} is not attached to a router", n));
  if (cfg.get_bool("sim.queue_series")) {
    if (cfg.get_int("sim.series_window") == 0)
      throw ConfigError("sim.queue_series", "needs a time series: set sim.series_window (cycles per window)");
    const std::string& chosen = cfg.get_string("sim.queue_routers");
    queue_series_ = std::make_unique<QueueSeries>(
        cfg.get_int("sim.series_window"), warmup_ + measure_,
        chosen.empty() ? std::vector<int>{} : select_routers("sim.queue_routers", chosen, *topo_));
  } else if (!cfg.get_string("sim.queue_routers").empty()) {
    throw ConfigError("sim.queue_routers", "has no effect without sim.queue_series = true");
  }
  if (cfg.get_bool("sim.channel_stats")) {
    channel_stats_ = std::make_unique<ChannelStats>(*topo_, warmup_, measure_);
    for (int r = 0; r < R; ++r)
      for (int o = 0; o < topo_->radix(r); ++o)
        if (out_link[r][o]) channel_stats_->add(out_link[r][o], r, o, -1);
    for (int n = 0; n < N; ++n) channel_stats_->add(nic_out[n], -1, -1, n);
  }
}

namespace {

// A phase's offered load against what its node can offer, and the node's
// source queue (one per interface: the same in every class and phase).
void check_source(const Config& pc, const TrafficPhase& ph, const std::string& where, const Config& node) {
  const double flits = static_cast<double>(ph.packets) * ph.packet_size;
  const int64_t source_queue = node.get_int("traffic.source_queue");
  const char* shared = "belongs to the node's interface, shared by every class and phase: set it once in [traffic]";
  if (pc.get_int("traffic.source_queue") != source_queue) throw ConfigError(where + ".source_queue", shared);
  if (pc.get_string("traffic.source_order") != node.get_string("traffic.source_order"))
    throw ConfigError(where + ".source_order", shared);
  if (source_queue > 0 && source_queue < ph.packets)
    throw ConfigError(where + ".source_queue", fmt::format("must hold a whole message ({} packets) or be 0 "
                                                           "(unbounded), got {}",
                                                           ph.packets, source_queue));
  if (ph.load > 1 && source_queue == 0)
    throw ConfigError(where + ".load",
                      fmt::format("{} flits/node/cycle is more than an injection channel carries (1): give "
                                  "traffic.source_queue a bound (what does not fit is refused), or the source "
                                  "queues grow without end",
                                  ph.load));
  if (ph.arrivals != TrafficPhase::Arrivals::OnOff && ph.load > flits)
    throw ConfigError(where + ".load", fmt::format("at most one message per node and cycle ({} flits/node/cycle "
                                                   "with {}-flit messages), got {}",
                                                   flits, flits, ph.load));
}

}  // namespace

void Network::build_traffic(const Config& cfg) {
  const int N = topo_->num_nodes();
  traffic_ = std::make_unique<TrafficSource>("traffic", N, seed_);
  for (int n = 0; n < N; ++n) traffic_->sockets[n]->bind(nics_[n]->socket);
  load_ = cfg.get_float("traffic.load");
  source_queue_ = cfg.get_int("traffic.source_queue");
  one_message_at_a_time_ = cfg.get_string("traffic.source_order") == "messages";
  const bool by_creation = cfg.get_string("sim.series_by") == "creation";
  if (by_creation && cfg.get_int("sim.series_window") == 0)
    throw ConfigError("sim.series_by", "needs a time series: set sim.series_window (cycles per window)");
  stats_ = std::make_unique<RunStats>(N, warmup_, measure_, cfg.get_int("sim.series_window"),
                                      cfg.get_float("sim.clock_ghz"), by_creation);
  if (source_queue_ > 0) stats_->sources_may_refuse();

  // Without [[traffic.class]] tables the [traffic] section is the one class.
  std::vector<const Config*> classes;
  for (auto& c : cfg.classes) classes.push_back(&c);
  if (classes.empty()) classes.push_back(&cfg);
  auto where = [&](size_t i) {
    return cfg.classes.empty() ? std::string("traffic") : fmt::format("traffic.class[{}]", i);
  };

  std::vector<std::string> keys, specs;
  for (size_t i = 0; i < classes.size(); ++i) {
    keys.push_back(where(i) + ".nodes");
    specs.push_back(classes[i]->get_string("traffic.nodes"));
  }
  const std::vector<std::vector<int>> nodes = select_class_nodes(keys, specs, *topo_, seed_);

  traffic_classes_ = nlohmann::json::array();
  for (size_t i = 0; i < classes.size(); ++i) {
    const Config& c = *classes[i];
    TrafficClassSpec spec;
    spec.name = c.get_string("traffic.name");
    spec.nodes = nodes[i];
    if (!c.get_string("traffic.motif").empty() || !c.get_string("traffic.trace").empty()) {
      add_motif_class(c, static_cast<int>(i), spec, where(i));
      continue;
    }
    if (c.get_int("traffic.stop") > 0) spec.stop = c.get_int("traffic.stop");
    std::vector<const Config*> phases{&c};
    for (auto& ph : c.phases) phases.push_back(&ph);
    std::stable_sort(phases.begin() + 1, phases.end(), [](const Config* a, const Config* b) {
      return a->get_int("traffic.at") < b->get_int("traffic.at");
    });
    std::vector<bool> source(N, false);
    for (size_t k = 0; k < phases.size(); ++k) {
      const Config& pc = *phases[k];
      TrafficPhase ph;
      ph.at = k == 0 ? c.get_int("traffic.start") : std::max(c.get_int("traffic.start"), pc.get_int("traffic.at"));
      patterns_.push_back(
          find_pattern(pc.get_string("traffic.pattern")).make(pc, *topo_, Rng::derive(seed_, 400 + i, k), spec.nodes));
      ph.pattern = patterns_.back().get();
      ph.load = pc.get_float("traffic.load");
      ph.packets = static_cast<int>(pc.get_int("traffic.message_size"));
      ph.packet_size = static_cast<int>(pc.get_int("traffic.packet_size"));
      const std::string arrivals = pc.get_string("traffic.injection");
      ph.arrivals = arrivals == "onoff"      ? TrafficPhase::Arrivals::OnOff
                    : arrivals == "periodic" ? TrafficPhase::Arrivals::Periodic
                                             : TrafficPhase::Arrivals::Bernoulli;
      ph.burst_length = pc.get_float("traffic.burst_length");
      ph.burst_rate = pc.get_float("traffic.burst_rate");
      check_source(pc, ph, where(i), cfg);
      if (ph.arrivals == TrafficPhase::Arrivals::OnOff && ph.load > ph.burst_rate)
        throw ConfigError(
            where(i) + ".burst_rate",
            fmt::format("must be at least the load ({}) under onoff injection, got {}", ph.load, ph.burst_rate));
      if (cut_through_ && ph.packet_size > max_vct_packet_)
        throw ConfigError(where(i) + ".packet_size",
                          fmt::format("must fit every buffer under cut-through (<= {} flits), got {}", max_vct_packet_,
                                      ph.packet_size));
      for (int n : spec.nodes)
        if (ph.load > 0 && ph.pattern->is_source(n)) source[n] = true;
      spec.phases.push_back(ph);
    }
    std::vector<int> sources;
    for (int n = 0; n < N; ++n)
      if (source[n]) sources.push_back(n);
    stats_->add_class(spec.name, spec.phases[0].load, sources);
    traffic_classes_.push_back({{"name", spec.name},
                                {"nodes", c.get_string("traffic.nodes")},
                                {"pattern", c.get_string("traffic.pattern")},
                                {"load", spec.phases[0].load},
                                {"sources", sources.size()},
                                {"phases", phases.size()}});
    traffic_->add_class(spec);
  }
  std::vector<std::string> class_names;
  for (auto& c : traffic_classes_) class_names.push_back(c["name"]);
  trace_ = PacketTrace::from_config(cfg, *topo_, class_names, router_latency_);
}

// A motif class: its ranks send through the traffic source's sockets; the class
// keeps an idle slot in the traffic source so that class indices stay aligned.
void Network::add_motif_class(const Config& c, int cls, TrafficClassSpec spec, const std::string& where) {
  if (!motifs_)
    motifs_ = std::make_unique<MotifEngine>([this](int node, const MessageRequest& r) { traffic_->send(node, r); });
  MotifEngine::ClassSetup setup = motif_class_setup(c, cls, spec.nodes, *topo_, seed_, warmup_, where);
  stats_->add_class(spec.name, 0.0, setup.nodes);
  const size_t stats_sources = setup.nodes.size();
  motifs_->add(std::move(setup));
  traffic_classes_.push_back({{"name", spec.name},
                              {"nodes", c.get_string("traffic.nodes")},
                              {"motif", c.get_string("traffic.motif")},
                              {"trace", c.get_string("traffic.trace")},
                              {"sources", stats_sources}});
  spec.phases = {TrafficPhase{}};  // load 0: never generates
  traffic_->add_class(spec);
}

PacketLedger::MessageRef Network::new_message(int, const MessageRequest& req, Cycle now) {
  const bool measured = in_window(now);
  const PacketLedger::MessageRef msg = ledger_.open_message(req, measured, now);
  if (measured) stats_->generated(req.traffic_class, static_cast<int64_t>(req.packets) * req.packet_size);
  return msg;
}

void Network::message_refused(const MessageRequest& req, Cycle now) {
  if (in_window(now)) stats_->refused(req.traffic_class, static_cast<int64_t>(req.packets) * req.packet_size);
}

Packet* Network::new_packet(PacketLedger::MessageRef msg, int src, const MessageRequest& req, Cycle now) {
  Packet* p = ledger_.new_data(msg, src, req, in_window(now), now);
  cc_->on_create(*p);
  if (trace_) trace_->created(*p, now);
  return p;
}

Packet* Network::new_control(PacketKind kind, int src, int dst, int vc_class, const Packet& ref, Cycle now) {
  Packet* p = ledger_.new_control(kind, src, dst, vc_class, ref, now);
  if (ref.traced) trace_->control_created(*p, ref, now);
  return p;
}

void Network::dropped(Router& at, Packet* p, Cycle now) {
  if (p->traced) trace_->dropped(*p, at.id(), now);
  if (p->kind != kDataPacket) {  // a control packet consumed by the switch
    cc_->on_drop(at, *p, now);
    ledger_.consumed(*p);
    ledger_.release(p);
    return;
  }
  ledger_.hold(p, at.id(), now);
  cc_->on_drop(at, *p, now);
}

Packet* Network::reclaim(uint64_t id) { return ledger_.reclaim(id); }

const Packet& Network::held(uint64_t id) const { return ledger_.held(id); }

void Network::resend(int node, Packet* p, Cycle at, Cycle now) {
  ++resends_;
  if (p->traced) trace_->resent(*p, now);
  p->reset_route();  // keeps its id, message and creation time
  nics_[node]->requeue(p, at, now);
}

Nic& Network::switch_nic(int r) {
  // The first endpoint, or the one with the fewest control packets waiting (the lowest id of a
  // tie): the same one for a packet's creation and its sending, which follow each other at once.
  int best = router_nics_[r].front();
  if (!least_busy_injection_) return *nics_[best];
  for (int n : router_nics_[r])
    if (nics_[n]->control_backlog() < nics_[best]->control_backlog()) best = n;
  return *nics_[best];
}

void Network::send_notification(int router, PacketKind kind, int dst, int value, const Packet& ref) {
  Nic& via = switch_nic(router);
  Packet* c = new_control(kind, via.id(), dst, notification_class_, ref, now());
  c->cc_value = value;
  via.send_control(c, now());
}

void Network::deliver(Nic& nic, Packet* p, Cycle now) {
  ledger_.delivered(*p, nic.id(), now);
  if (p->traced) trace_->delivered(*p, nic.id(), now);
  if (p->vc_class == notification_class_) {  // the routing function read it on its way
    ledger_.release(p);
    return;
  }
  if (p->kind != kDataPacket) {
    cc_->on_control(nic, *p, now);
    ledger_.release(p);
    return;
  }
  cc_->on_deliver(nic, *p, now);
  PacketLedger::Message m;
  const bool complete = ledger_.completes_message(*p, m);
  stats_->packet_delivered(*p, now);
  if (complete && m.measured) stats_->message_delivered(m.traffic_class, now - m.created);
  if (complete && m.tag >= 0) motifs_->arrived(m.tag, now);
  ledger_.release(p);
}

void Network::cycle_loop() {
  Cycle end = warmup_ + measure_;
  Cycle next_check = 1024;
  Progress progress(end);
  for (;;) {
    const Cycle now = sched_.now();
    if (channel_stats_) channel_stats_->observe(now);
    if (queue_series_) queue_series_->observe(now, routers_);
    if (now >= end && (ledger_.measured_outstanding() == 0 || now >= end + drain_cap_)) {
      drain_cap_hit_ = ledger_.measured_outstanding() > 0;
      break;
    }
    if (now >= next_check) {
      next_check = now + 1024;
      if (check_deadlock()) break;
    }
    progress.update(now);
    traffic_->generate(now);
    if (motifs_) {
      motifs_->generate(now);
      if (motifs_->all_finished() && now < end) end = end_window_at(now);
    }
    if (parallel_)
      sched_.run_cycle([&](const std::vector<Component*>& batch) { step_batch(batch, now); });
    else
      sched_.run_cycle();
    const Cycle next_message = std::min(traffic_->next_event(), motifs_ ? motifs_->next_event() : INT64_MAX);
    if (sched_.idle() && next_message == INT64_MAX && ledger_.delivered_count() != ledger_.created()) check_stall();
    if (sched_.idle() || sched_.next_due() > sched_.now()) {
      // Nothing due: jump to the next event, but never past the window's end.
      const Cycle target = std::min({sched_.idle() ? INT64_MAX : sched_.next_due(), next_message, end});
      if (target > sched_.now() && target != INT64_MAX) sched_.skip_to(target);
    }
    if (use_kernel_) sc_core::wait(sc_core::sc_time(1.0, sc_core::SC_NS));
  }
  end_cycle_ = sched_.now();
}

void Network::step_batch(const std::vector<Component*>& batch, Cycle now) {
  router_batch_.clear();
  nic_batch_.clear();
  for (Component* c : batch) {
    if (c->batch == Component::Batch::Router)
      router_batch_.push_back(static_cast<Router*>(c));
    else
      nic_batch_.push_back(static_cast<Nic*>(c));
  }
  if (!router_batch_.empty()) {
    const int64_t hops = parallel_->step(router_batch_, sched_, now);
    if (hops > 0) count_flit_hops(hops, now);
  }
  if (!nic_batch_.empty()) {
    const int64_t flits = parallel_nics_->step(nic_batch_, sched_, now);
    if (flits > 0) {
      count_flit_hops(flits, now);
      flit_injected(flits);
    }
  }
}

Cycle Network::end_window_at(Cycle now) {
  const Cycle at = std::max(now, warmup_ + 1);
  measure_ = at - warmup_;
  if (cfg_.get_int("sim.drain_cap") == 0) drain_cap_ = 4 * measure_;  // the default cap follows the window
  stats_->end_window(at);
  if (channel_stats_) channel_stats_->end_window(at);
  return at;
}

// With nothing else scheduled, sc_start() returns once this thread ends.
void Network::kernel_thread() { cycle_loop(); }

bool Network::check_deadlock() {
  const int64_t in_network = flits_injected_ - flits_ejected_ - flits_discarded_;
  if (in_network == 0 || sched_.now() - last_progress_ < deadlock_cycles_) return false;
  for (auto& r : routers_) {
    int vc = -1, out = -1;
    int port = r->blocked_input(vc, out);
    if (port >= 0) {
      deadlock_ = {{"cycle", sched_.now()}, {"router", r->id()},
                   {"input_port", port},    {"vc", vc},
                   {"output_port", out},    {"flits_in_network", in_network}};
      return true;
    }
  }
  deadlock_ = {{"cycle", sched_.now()}, {"flits_in_network", in_network}};
  return true;
}

void Network::check_conservation() {
  // Flits: everything injected was ejected or is held in a buffer or on a link.
  int64_t held = 0;
  for (auto& r : routers_) held += r->buffered_flits();
  if (recovery_) held += recovery_->flits_in_lane();
  int64_t on_links = 0;
  for (auto& l : links_) on_links += static_cast<int64_t>(l->flits_in_flight());
  if (flits_injected_ - flits_ejected_ - flits_discarded_ != held + on_links)
    throw SimError(
        fmt::format("flit conservation: injected {} - ejected {} - discarded {} != buffered {} + on "
                    "links {}",
                    flits_injected_, flits_ejected_, flits_discarded_, held, on_links));
  // Credits: per router-to-router VC, credits + flits and credits in flight +
  // downstream occupancy == downstream depth.
  for (auto& l : links_) {
    auto* up = dynamic_cast<Router*>(l->upstream);
    auto* down = dynamic_cast<Router*>(l->downstream);
    if (!up || !down) continue;
    for (int v = 0; v < up->num_vcs(); ++v) {
      const int sum = up->credits(l->upstream_port, v) + l->flits_in_flight_on_vc(v) + l->credits_in_flight_on_vc(v) +
                      down->input_flits(l->downstream_port, v);
      if (sum != up->downstream_depth(l->upstream_port))
        throw SimError(fmt::format("credit conservation on router {} port {} vc {}: {} != depth {}", up->id(),
                                   l->upstream_port, v, sum, up->downstream_depth(l->upstream_port)));
    }
  }
  // Packets: every created packet was delivered exactly once or is somewhere
  // known; a dropped one has a control packet about it in flight (its NACK)
  // or the protocol holds it for a resend.
  AnsweredPackets answered;
  auto note_answer = [&](const Packet* p) {
    if (p->kind != kDataPacket) answered.insert(p->ref);
  };
  for (auto& n : nics_) n->for_each_packet(note_answer);
  for (auto& r : routers_) r->for_each_packet([&](const Packet* p, int) { note_answer(p); });
  for (auto& l : links_)
    for (size_t i = 0; i < l->flits_in_flight(); ++i) note_answer(l->flit_in_flight(i).pkt);
  ledger_.check(packet_places(), answered, [&](uint64_t id) { return cc_->holds_for_resend(id); });
}

PacketPlaces Network::packet_places() const {
  PacketPlaces where;
  auto put = [&](const Packet* p, const std::string& place) { where.emplace(p->id, place); };
  for (auto& n : nics_) n->for_each_packet([&](const Packet* p) { put(p, fmt::format("queued at NIC {}", n->id())); });
  for (auto& r : routers_)
    r->for_each_packet([&](const Packet* p, int) { put(p, fmt::format("buffered at router {}", r->id())); });
  for (auto& l : links_)
    for (size_t i = 0; i < l->flits_in_flight(); ++i) put(l->flit_in_flight(i).pkt, "on a link");
  ledger_.for_each_held([&](const Packet& p, const std::string& place) { put(&p, place); });
  if (recovery_) recovery_->for_each_packet([&](const Packet* p) { put(p, "in the deadlock-recovery lane"); });
  return where;
}

void Network::check_stall() {
  int64_t waiting = 0;
  const std::string first = ledger_.describe_waiting(packet_places(), waiting);
  throw SimError(
      fmt::format("stall in cycle {}: {} packets undelivered and nothing will move them (no component is "
                  "scheduled, no traffic is due); the first: {}",
                  sched_.now(), waiting, first));
}

nlohmann::json Network::run() {
  const auto t0 = std::chrono::steady_clock::now();
  if (use_kernel_) {
    sc_core::sc_start();
  } else {
    cycle_loop();
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  check_conservation();
  return results(wall);
}

// Which implementation each hardware block of this run had: {"<block>": "rtl", ...,
// "lockstep": bool}. Only the blocks the routing algorithm and the protocol use are listed.
nlohmann::json Network::hardware_json() const {
  nlohmann::json j = nlohmann::json::object();
  std::vector<hw::Block> used = routing_->hardware_blocks();
  for (hw::Block b : cc_->hardware_blocks()) used.push_back(b);
  for (hw::Block b : used) j[hw::to_string(b)] = settings_.hardware.rtl[static_cast<int>(b)] ? "rtl" : "ref";
  j["lockstep"] = settings_.hardware.lockstep;
  if (!settings_.hardware.trace.empty()) j["trace"] = settings_.hardware.trace;
  return j;
}

nlohmann::json Network::results(double wall) {
  nlohmann::json j;
  nlohmann::json cfgj;
  for (auto& [k, v] : cfg_.values()) {
    if (auto* i = std::get_if<int64_t>(&v))
      cfgj[k] = *i;
    else if (auto* d = std::get_if<double>(&v))
      cfgj[k] = *d;
    else if (auto* b = std::get_if<bool>(&v))
      cfgj[k] = *b;
    else
      cfgj[k] = std::get<std::string>(v);
  }
  j["config"] = cfgj;
  j["seed"] = seed_;
  j["traffic_classes"] = traffic_classes_;
  const nlohmann::json measured = stats_->json(load_);
  for (auto& [k, v] : measured.items()) j[k] = v;
  if (motifs_) {
    nlohmann::json unfinished = nlohmann::json::array();
    for (auto& [cls, mj] : motifs_->json()) {
      const std::string name = traffic_classes_[cls]["name"];
      if (!mj["finished"].get<bool>()) unfinished.push_back(name);
      j["classes"][name]["motif"] = mj;
    }
    if (!unfinished.empty()) j["motifs_unfinished"] = unfinished;
  }
  // Load is offered per source node; overall accepted throughput is per node
  // of the network, a class's per source node of the class.
  j["units"] = {{"load", "flits/node/cycle"}, {"latency", "cycles"}, {"node_accepted", "flits/cycle"}};
  j["saturated"] = drain_cap_hit_ || stats_->backlogged() || deadlock_ != false;
  j["packets_created"] = ledger_.created();
  j["packets_delivered"] = ledger_.delivered_count();
  j["deadlock"] = deadlock_ != false;
  if (deadlock_ != false) j["deadlock_info"] = deadlock_;
  j["cycles"] = end_cycle_;
  j["hardware"] = hardware_json();
  j["congestion"] = cc_->stats();
  if (auto rs = routing_->stats(); !rs.empty()) j["routing"] = std::move(rs);
  j["congestion"]["drops"] = ledger_.drops();
  j["congestion"]["resends"] = resends_;
  if (recovery_) j["deadlock_recovery"] = recovery_->stats();
  if (channel_stats_) {
    j["channels"] = channel_stats_->json();
    std::set<int> hot;  // where the patterns concentrate traffic: marked on the heatmaps
    for (auto& p : patterns_)
      for (int n : p->hot_nodes()) hot.insert(n);
    if (!hot.empty()) j["channels"]["hot_nodes"] = hot;
  }
  if (queue_series_) j["series"]["queue_flits"] = queue_series_->json(routers_);
  if (trace_) j["trace"] = trace_->write();
  j["perf"] = {{"wall_seconds", wall},
               {"cycles_per_second", wall > 0 ? static_cast<double>(end_cycle_) / wall : 0.0},
               {"flit_hops_per_second", wall > 0 ? static_cast<double>(flit_hops_) / wall : 0.0},
               {"flit_hops", flit_hops_},
               {"peak_rss_mb", peak_rss_mb()},
               {"cpu_seconds", cpu_seconds()},
               {"router_threads", parallel_ ? parallel_->threads() : 1},
               {"nic_threads", parallel_nics_ ? parallel_->threads() : 1}};
  if (!parallel_obstacle_.empty()) j["perf"]["threads_obstacle"] = parallel_obstacle_;
  if (!nic_obstacle_.empty()) j["perf"]["nic_threads_obstacle"] = nic_obstacle_;
  return j;
}

}  // namespace ccsim
