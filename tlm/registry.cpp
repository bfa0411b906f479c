// The registry: one line per selectable component.
#include "registry.h"

#include "hw/selection.h"

#include <fmt/format.h>

#include <algorithm>

namespace ccsim {

// Declares and calls the entry function `fn` (defined beside its mechanism):
// adding a component is its own file(s) plus one line in a list below.
#define CCSIM_ENTRY(Type, fn) \
  [] {                        \
    extern Type fn();         \
    return fn();              \
  }()

namespace {

template <typename E>
std::string names(const std::vector<E>& v) {
  std::string s;
  for (auto& e : v) s += (s.empty() ? "" : ", ") + e.name;
  return s;
}

std::vector<std::string> topology_names() {
  std::vector<std::string> v;
  for (auto& t : topologies()) v.push_back(t.name);
  return v;
}

}  // namespace

const std::vector<TopologyEntry>& topologies() {
  static const std::vector<TopologyEntry> v = {
      CCSIM_ENTRY(TopologyEntry, dragonfly_topology_entry),
      CCSIM_ENTRY(TopologyEntry, flatfly_topology_entry),
      CCSIM_ENTRY(TopologyEntry, torus_topology_entry),
      CCSIM_ENTRY(TopologyEntry, mesh_topology_entry),
  };
  return v;
}

const std::vector<RoutingEntry>& routings() {
  static const std::vector<RoutingEntry> v = {
      CCSIM_ENTRY(RoutingEntry, dragonfly_min_entry),      CCSIM_ENTRY(RoutingEntry, dragonfly_val_entry),
      CCSIM_ENTRY(RoutingEntry, dragonfly_ugal_l_entry),   CCSIM_ENTRY(RoutingEntry, dragonfly_ugal_g_entry),
      CCSIM_ENTRY(RoutingEntry, dragonfly_par_entry),      CCSIM_ENTRY(RoutingEntry, dragonfly_par62_entry),
      CCSIM_ENTRY(RoutingEntry, dragonfly_pb_entry),       CCSIM_ENTRY(RoutingEntry, dragonfly_olm_entry),
      CCSIM_ENTRY(RoutingEntry, dragonfly_base_entry),     CCSIM_ENTRY(RoutingEntry, dragonfly_hybrid_entry),
      CCSIM_ENTRY(RoutingEntry, dragonfly_ectn_entry),     CCSIM_ENTRY(RoutingEntry, dragonfly_qcn_switch_entry),
      CCSIM_ENTRY(RoutingEntry, flatfly_min_entry),        CCSIM_ENTRY(RoutingEntry, flatfly_val_entry),
      CCSIM_ENTRY(RoutingEntry, flatfly_ugal_l_entry),     CCSIM_ENTRY(RoutingEntry, flatfly_ugal_g_entry),
      CCSIM_ENTRY(RoutingEntry, torus_dor_entry),          CCSIM_ENTRY(RoutingEntry, mesh_dor_entry),
      CCSIM_ENTRY(RoutingEntry, torus_duato_entry),        CCSIM_ENTRY(RoutingEntry, mesh_duato_entry),
      CCSIM_ENTRY(RoutingEntry, torus_adaptive_entry),     CCSIM_ENTRY(RoutingEntry, mesh_adaptive_entry),
      CCSIM_ENTRY(RoutingEntry, torus_duato_bubble_entry),
  };
  return v;
}

const std::vector<PatternEntry>& patterns() {
  static const std::vector<PatternEntry> v = {
      CCSIM_ENTRY(PatternEntry, uniform_pattern_entry),     CCSIM_ENTRY(PatternEntry, adv_pattern_entry),
      CCSIM_ENTRY(PatternEntry, worst_case_pattern_entry),  CCSIM_ENTRY(PatternEntry, wc_hot_pattern_entry),
      CCSIM_ENTRY(PatternEntry, hot_region_pattern_entry),  CCSIM_ENTRY(PatternEntry, hotspot_pattern_entry),
      CCSIM_ENTRY(PatternEntry, permutation_pattern_entry), CCSIM_ENTRY(PatternEntry, tornado_pattern_entry),
      CCSIM_ENTRY(PatternEntry, bitrev_pattern_entry),      CCSIM_ENTRY(PatternEntry, shuffle_pattern_entry),
      CCSIM_ENTRY(PatternEntry, butterfly_pattern_entry),   CCSIM_ENTRY(PatternEntry, transpose_pattern_entry),
      CCSIM_ENTRY(PatternEntry, adv_mix_pattern_entry),
  };
  return v;
}

const std::vector<ProtocolEntry>& protocols() {
  static const std::vector<ProtocolEntry> v = {
      CCSIM_ENTRY(ProtocolEntry, none_protocol_entry), CCSIM_ENTRY(ProtocolEntry, ecn_protocol_entry),
      CCSIM_ENTRY(ProtocolEntry, qcn_protocol_entry),  CCSIM_ENTRY(ProtocolEntry, lhrp_protocol_entry),
      CCSIM_ENTRY(ProtocolEntry, srp_protocol_entry),  CCSIM_ENTRY(ProtocolEntry, smsrp_protocol_entry),
      CCSIM_ENTRY(ProtocolEntry, cbcm_protocol_entry), CCSIM_ENTRY(ProtocolEntry, selftune_protocol_entry),
      CCSIM_ENTRY(ProtocolEntry, alo_protocol_entry),
  };
  return v;
}

namespace {
// `first` followed by `more`.
std::vector<ParamSpec> with(std::vector<ParamSpec> more, std::vector<ParamSpec> first) {
  first.insert(first.end(), more.begin(), more.end());
  return first;
}
}  // namespace

const std::vector<ParamSpec>& core_params() {
  static const std::vector<ParamSpec> v = with(
      hw::hardware_params(),
      {
          string_param("topology.kind", "dragonfly", "topology", topology_names()),
          // [router]
          int_param("router.vcs", 4,
                    "VCs per class on every port (each routing algorithm needs a minimum: see ccsim list)", 1, 32),
          int_param("router.buffer_depth", 32, "input buffer per VC in flits (terminal ports, and default)", 1,
                    1 << 20),
          int_param("router.local_buffer_depth", 0, "input buffer per VC on local ports; 0 = buffer_depth", 0, 1 << 20),
          int_param("router.global_buffer_depth", 256, "input buffer per VC on global ports; 0 = buffer_depth", 0,
                    1 << 20),
          int_param("router.output_buffer", 32, "output queue per VC in flits (CIOQ)", 1, 1 << 20),
          int_param("router.latency", 3, "cycles from a head flit's arrival to its departure at zero load", 1, 1000),
          int_param("router.speedup", 1, "internal speedup: flits per cycle each input and output may move", 1, 16),
          string_param("router.switching", "vct", "virtual cut-through or wormhole", {"vct", "wormhole"}),
          bool_param("router.voq", false, "virtual output queues at each input VC"),
          string_param("router.occupancy", "credits",
                       "port occupancy seen by adaptive routing: output queue plus the "
                       "credits in use (credits) or plus the flits in the downstream buffer (downstream: an ideal "
                       "estimate for long channels, where credits in flight dominate)",
                       {"credits", "downstream"}),
          string_param("router.va_arbiter", "rotating",
                       "VC allocator: inputs visited from a start that rotates every cycle, one for all outputs "
                       "(rotating; an input's share of a contended output depends on its number and on when credits "
                       "come back), or a round-robin arbiter per output whose pointer moves past the input it granted "
                       "(round_robin), or that with transit inputs ahead of injection inputs (transit_priority: "
                       "FOGSim's default output arbiter, PrioLRS, behind 001 and 002)",
                       {"rotating", "round_robin", "transit_priority"}),
          string_param("router.switch_injection", "first_endpoint",
                       "which of a router's endpoint interfaces injects the packets the switch itself sends (NACKs, "
                       "LHRP grants, QCN CNMs, notifications): its first endpoint, or the one with the fewest control "
                       "packets waiting (003 gives the switch a queue of its own; spreading them over the endpoints "
                       "comes nearer its bandwidth)",
                       {"first_endpoint", "least_busy_endpoint"}),
          // [links]
          int_param("links.terminal_latency", 1, "injection/ejection channel latency (cycles)", 1, 1 << 24),
          int_param("links.local_latency", 10,
                    "local channel latency (cycles): intra-group on the dragonfly, every router-to-router channel on "
                    "the flattened butterfly",
                    1, 1 << 24),
          int_param("links.global_latency", 100, "global channel latency (cycles)", 1, 1 << 24),
          // [routing]
          string_param("routing.algorithm", "min", "routing algorithm (see ccsim list)"),
          string_param("routing.deadlock", "avoidance",
                       "deadlock handling: avoidance (the routing algorithm's VC "
                       "rules alone) or recovery (Disha-style: a head blocked deadlock_timeout cycles takes the "
                       "circulating token and drains through a per-router deadlock buffer; docs/model.md)",
                       {"avoidance", "recovery"}),
          int_param("routing.deadlock_timeout", 8,
                    "recovery: cycles a head waits for an output VC before it is "
                    "presumed deadlocked (004: 8)",
                    1, 1 << 24),
          // [traffic]
          string_param("traffic.pattern", "uniform", "traffic pattern (see ccsim list)"),
          float_param("traffic.load", 0.1,
                      "offered load per source node (flits/node/cycle); above 1 (more than the injection channel "
                      "carries) only with a bounded traffic.source_queue, and at most one message per cycle",
                      0.0),
          int_param("traffic.packet_size", 1, "flits per packet", 1, 4096),
          int_param("traffic.message_size", 1, "packets per message", 1, 1 << 16),
          string_param("traffic.injection", "bernoulli",
                       "message arrivals: bernoulli, periodic (one message every message flits / load cycles, from "
                       "a random phase per node: 004's regeneration interval), or onoff bursts (burst_length messages "
                       "at burst_rate, then an off period that keeps the average at load)",
                       {"bernoulli", "periodic", "onoff"}),
          float_param("traffic.burst_length", 8, "onoff: mean messages per burst", 1, 1e9),
          float_param("traffic.burst_rate", 1.0, "onoff: flits/cycle a node offers during a burst (>= load)", 1e-9,
                      1.0),
          int_param("traffic.source_queue", 0,
                    "data packets a node's interface holds before they enter the network; a message that does not "
                    "fit is refused (results: refused_load), as 004's node that \"tries to generate\" a packet; "
                    "0 = unbounded (the message waits, however long)",
                    0),
          string_param("traffic.source_order", "destinations",
                       "how a node's interface takes turns between its messages: destinations (one packet per "
                       "destination in turn, as InfiniBand queue pairs; a destination whose next packet the "
                       "congestion control holds is skipped) or messages (one message at a time: a turn sends a "
                       "whole message, and the node waits while the congestion control holds its next packet, as "
                       "000 III-B's SRP source that \"can only transmit one message at any given time\")",
                       {"destinations", "messages"}),
          string_param("traffic.name", "default", "name of the traffic class in the results (classes.<name>)"),
          string_param("traffic.nodes", "all",
                       "nodes of the class: all, rest (not in another class), random:N, "
                       "range:A-B, router_index:A[-B], list:A,B,... or a TOML array"),
          string_param("traffic.motif", "",
                       "application motif the class's nodes run as ranks instead of a pattern (halo2d, halo3d, "
                       "halo3d26, sweep3d, fft3d, allreduce, alltoall, incast, pingpong: see ccsim list); its "
                       "messages are traffic.message_size packets of traffic.packet_size flits; \"\" = none"),
          string_param("traffic.trace", "",
                       "a trace file the class's nodes run as ranks 0, 1, ... instead of a pattern (format: "
                       "docs/traffic.md); \"\" = none"),
          int_param("traffic.flit_bytes", 16, "trace: bytes per flit, to turn the trace's message sizes into flits", 1,
                    1 << 20),
          int_param("traffic.iterations", 10, "motif: iterations each rank runs", 1, 1 << 24),
          int_param("traffic.compute", 1000,
                    "motif: cycles (or a time such as \"1us\") a rank computes per iteration (sweep3d: per block)", 0,
                    1 << 30),
          string_param("traffic.grid", "",
                       "motif: the rank grid, e.g. \"4x4x2\" (halo3d, halo3d26: 3 sizes; halo2d, sweep3d, fft3d: 2); "
                       "\"\" = the most balanced factorisation of the class's node count"),
          string_param("traffic.rank_order", "linear",
                       "motif: ranks on the class's nodes in node order (linear), shuffled by the seed (random), "
                       "or round robin over their routers (router: neighbouring ranks on different routers)",
                       {"linear", "random", "router"}),
          int_param("traffic.kslices", 2, "motif sweep3d: blocks (k-slices) per corner sweep", 1, 1 << 16),
          int_param("traffic.start", 0, "cycle the class starts generating (or a time such as \"20us\")", 0),
          int_param("traffic.stop", 0, "cycle the class stops generating; 0 = never", 0),
          // [congestion]
          string_param("congestion.protocol", "none", "congestion-control protocol (see ccsim list)"),
          // [sim]
          int_param("sim.seed", 1, "random seed; same seed and config give identical results", 0),
          int_param("sim.warmup", 2000, "warm-up cycles before measurement", 0),
          int_param("sim.measure", 10000, "measurement window (cycles)", 1),
          int_param("sim.drain_cap", 0, "max cycles to drain packets created in the window; 0 = 4*measure", 0),
          int_param("sim.deadlock_cycles", 20000,
                    "cycles without any flit movement, with flits in the network, "
                    "that count as deadlock",
                    100),
          float_param("sim.clock_ghz", 1.0, "clock frequency, for latencies given in ns/us", 1e-6, 1e3),
          int_param("sim.series_window", 0,
                    "time-series window in cycles or a time such as \"1us\" (latency, throughput, "
                    "misrouting per class); 0 = no time series",
                    0),
          string_param("sim.series_by", "delivery",
                       "with sim.series_window: the window a delivered packet's latency and misrouting count in, "
                       "that of its delivery or of its creation (FOGSim's transient records, 002 Figs. 7-9: a "
                       "change of routing then shows at the cycle it applies, not a packet latency later); "
                       "throughput is always by delivery",
                       {"delivery", "creation"}),
          bool_param("sim.channel_stats", false,
                     "per-channel utilization in the measured window (results: channels): flits/cycle of every "
                     "router output port and injection channel, by kind, and the busiest ports"),
          bool_param("sim.queue_series", false,
                     "with sim.series_window: mean flits queued per router port of each kind (input buffer and "
                     "output queue) at the end of every window (results: series.queue_flits)"),
          string_param("sim.queue_routers", "",
                       "with sim.queue_series: routers followed port by port, range:A-B or list:A,B,... "
                       "(results: series.queue_flits.routers)"),
          string_param("sim.trace", "",
                       "\"packets\": write the life of the traced packets (created, injected, every "
                       "router with ports, VCs and wait, drops, resends, delivery) as Chrome trace-event JSON "
                       "(Perfetto, chrome://tracing) and CSV; \"\" = off",
                       {"", "packets"}),
          string_param("sim.trace_file", "ccsim_packets.json", "packet trace file; the CSV goes beside it (.csv)"),
          string_param("sim.trace_nodes", "all",
                       "trace packets from or to these nodes (the syntax of traffic.nodes, without rest)"),
          string_param("sim.trace_class", "", "trace packets of this traffic class only (its name); \"\" = all"),
          int_param("sim.trace_start", 0, "trace packets created from this cycle on (or a time such as \"20us\")", 0),
          int_param("sim.trace_stop", 0, "trace packets created before this cycle (or a time); 0 = no end", 0),
          float_param("sim.trace_sample", 1.0, "share of the packets passing the other filters that are traced", 1e-9,
                      1.0),
          int_param("sim.trace_max_events", 1000000,
                    "events the trace holds at most; the trace stops there (results: trace.truncated)", 1),
          int_param("sim.threads", 1,
                    "threads that step the routers of one run (results are identical for every count); routers "
                    "stay on one thread when a mechanism reads beyond its router (results: perf.router_threads)",
                    1, 256),
          string_param("sim.kernel", "direct", "advance time directly or from a SystemC thread under sc_start",
                       {"direct", "systemc"}),
          // [launcher]: how `ccsim sweep` and `ccsim reproduce --launcher slurm` submit; no result depends on them
          string_param("launcher.partition", "",
                       "Slurm partition of the job array (sbatch --partition); \"\" = default"),
          string_param("launcher.time", "", "Slurm time limit per array task, e.g. \"02:00:00\"; \"\" = default"),
          string_param("launcher.account", "", "Slurm account to charge (sbatch --account); \"\" = default"),
          int_param("launcher.cpus_per_task", 1, "CPUs per Slurm array task: the points a task runs at once", 1, 1024),
          int_param("launcher.array_tasks", 0,
                    "Slurm array tasks the points are dealt to (point i to task i mod N); 0 = one per point, "
                    "at most 1000",
                    0, 100000),
          int_param("launcher.max_running", 0, "array tasks Slurm runs at once (--array=...%N); 0 = no limit", 0),
      });
  return v;
}

const TopologyEntry& find_topology(const std::string& name) {
  for (auto& e : topologies())
    if (e.name == name) return e;
  throw ConfigError("topology.kind", fmt::format("unknown \"{}\"; allowed: {}", name, names(topologies())));
}

const RoutingEntry& find_routing(const std::string& topology, const std::string& name) {
  std::string allowed;
  for (auto& e : routings()) {
    if (e.topology != topology) continue;
    if (e.name == name) return e;
    allowed += (allowed.empty() ? "" : ", ") + e.name;
  }
  throw ConfigError("routing.algorithm",
                    fmt::format("unknown \"{}\" for topology {}; allowed: {}", name, topology, allowed));
}

const PatternEntry& find_pattern(const std::string& name) {
  for (auto& e : patterns())
    if (e.name == name) return e;
  throw ConfigError("traffic.pattern", fmt::format("unknown \"{}\"; allowed: {}", name, names(patterns())));
}

const ProtocolEntry& find_protocol(const std::string& name) {
  for (auto& e : protocols())
    if (e.name == name) return e;
  throw ConfigError("congestion.protocol", fmt::format("unknown \"{}\"; allowed: {}", name, names(protocols())));
}

std::vector<ParamSpec> applicable_params(const std::string& topology, const std::string& routing,
                                         const std::string& pattern, const std::string& protocol) {
  std::vector<ParamSpec> v = core_params();
  auto add = [&](const std::vector<ParamSpec>& ps) {
    for (auto& p : ps)
      if (std::none_of(v.begin(), v.end(), [&](const ParamSpec& q) { return q.key == p.key; })) v.push_back(p);
  };
  add(find_topology(topology).params);
  add(find_routing(topology, routing).params);
  add(find_pattern(pattern).params);
  add(find_protocol(protocol).params);
  return v;
}

}  // namespace ccsim
