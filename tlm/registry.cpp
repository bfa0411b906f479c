// The registry: one line per selectable component.
#include "registry.h"

#include "hw/selection.h"

#include <fmt/format.h>

#include <algorithm>

#include "congestion/alo.h"
#include "congestion/cbcm.h"
#include "congestion/ecn.h"
#include "congestion/lhrp.h"
#include "congestion/none.h"
#include "congestion/qcn.h"
#include "congestion/qcn_congestion_point.h"
#include "congestion/selftune.h"
#include "congestion/srp.h"
#include "topology/dragonfly.h"
#include "topology/flatfly.h"
#include "traffic/node_set.h"
#include "topology/torus.h"
#include "traffic/patterns.h"
#include "traffic/permutation_patterns.h"

namespace ccsim {

// Defined next to each mechanism.
RoutingEntry dragonfly_min_entry();
RoutingEntry dragonfly_val_entry();
RoutingEntry dragonfly_ugal_l_entry();
RoutingEntry dragonfly_ugal_g_entry();
RoutingEntry dragonfly_par_entry(bool local_misrouting);
RoutingEntry dragonfly_pb_entry();
RoutingEntry dragonfly_olm_entry();
RoutingEntry dragonfly_base_entry();
RoutingEntry dragonfly_hybrid_entry();
RoutingEntry dragonfly_ectn_entry();
RoutingEntry dragonfly_qcn_switch_entry();
RoutingEntry flatfly_min_entry();
RoutingEntry flatfly_val_entry();
RoutingEntry flatfly_ugal_l_entry();
RoutingEntry flatfly_ugal_g_entry();
RoutingEntry dor_entry(const std::string& topology);
RoutingEntry duato_entry(const std::string& topology);
RoutingEntry adaptive_entry(const std::string& topology);

namespace {

template <typename E>
std::string names(const std::vector<E>& v) {
  std::string s;
  for (auto& e : v) s += (s.empty() ? "" : ", ") + e.name;
  return s;
}

std::vector<ParamSpec> torus_params() {
  return {int_param("topology.k", 16, "routers per dimension", 2, 1 << 24),
          int_param("topology.n", 2, "dimensions", 1, 31),
          int_param("topology.c", 1, "nodes per router", 1, 64)};
}

}  // namespace

const std::vector<TopologyEntry>& topologies() {
  static const std::vector<TopologyEntry> v = {
      {"dragonfly", "dragonfly: groups of a routers (complete graph), h global channels per router, p nodes each",
       {int_param("topology.p", 4, "nodes per router", 1, 1024),
        int_param("topology.a", 8, "routers per group", 1, 1024),
        int_param("topology.h", 4, "global channels per router", 0, 1024),
        int_param("topology.groups", 0, "number of groups; 0 means a*h+1 (at most a*h+1; groups-1 must divide a*h)", 0,
                  1 << 20),
        string_param("topology.arrangement", "palmtree", "global channel arrangement",
                     {"palmtree", "consecutive"})},
       [](const Config& c) { return std::make_unique<Dragonfly>(Dragonfly::from_config(c)); }},
      {"flatfly", "k-ary n-flat flattened butterfly: k^n routers, each linked to every router differing in one "
                  "coordinate, c nodes each; router-to-router channels are local (links.local_latency)",
       {int_param("topology.k", 4, "routers per dimension", 2, 64),
        int_param("topology.n", 2, "dimensions", 1, 63),
        int_param("topology.c", 4, "nodes per router (concentration); radix c + n*(k-1) must be <= 64", 1, 63)},
       [](const Config& c) { return std::make_unique<FlattenedButterfly>(FlattenedButterfly::from_config(c)); }},
      {"torus", "k-ary n-cube torus: k routers per dimension, n dimensions, rings of wrap-around channels, c nodes "
       "per router; router-to-router channels are local (links.local_latency, router.local_buffer_depth)",
       torus_params(), [](const Config& c) { return std::make_unique<Torus>(Torus::from_config(c, true)); }},
      {"mesh", "k-ary n-cube mesh: the torus without wrap-around channels", torus_params(),
       [](const Config& c) { return std::make_unique<Torus>(Torus::from_config(c, false)); }},
  };
  return v;
}

const std::vector<RoutingEntry>& routings() {
  static const std::vector<RoutingEntry> v = {
      dragonfly_min_entry(),    dragonfly_val_entry(), dragonfly_ugal_l_entry(),
      dragonfly_ugal_g_entry(), dragonfly_par_entry(false), dragonfly_par_entry(true),
      dragonfly_pb_entry(),     dragonfly_olm_entry(),      dragonfly_base_entry(),
      dragonfly_hybrid_entry(), dragonfly_ectn_entry(),     dragonfly_qcn_switch_entry(), flatfly_min_entry(),
      flatfly_val_entry(),      flatfly_ugal_l_entry(),   flatfly_ugal_g_entry(),
      dor_entry("torus"),       dor_entry("mesh"),        duato_entry("torus"),
      duato_entry("mesh"),      adaptive_entry("torus"),  adaptive_entry("mesh"),
  };
  return v;
}

const std::vector<PatternEntry>& patterns() {
  using Nodes = const std::vector<int>&;
  auto permutation = [](std::string name, std::string doc) {
    return PatternEntry{name, doc, {}, [name](const Config&, const Topology& t, uint64_t, Nodes) {
                          return std::make_unique<PermutationPattern>(bit_permutation(name, t.num_nodes()));
                        }};
  };
  static const std::vector<PatternEntry> v = {
      {"uniform", "uniform random: every message to a random other node of the class's node set", {},
       [](const Config&, const Topology&, uint64_t, Nodes nodes) { return std::make_unique<UniformPattern>(nodes); }},
      {"adv", "ADV+i (and WCn of 003): nodes of group g send to random nodes of group g+offset (a group is a router "
       "off dragonflies)",
       {int_param("traffic.offset", 1, "group offset i of ADV+i / n of WCn", 1, 1 << 20)},
       [](const Config& c, const Topology& t, uint64_t, Nodes) {
         const int gs = pattern_group_size(t);
         const int groups = t.num_nodes() / gs;
         const int off = static_cast<int>(c.get_int("traffic.offset"));
         if (off % groups == 0)
           throw ConfigError("traffic.offset", fmt::format("must not be a multiple of the group count ({})", groups));
         return std::make_unique<AdversarialPattern>(t.num_nodes(), gs, off);
       }},
      {"worst_case", "000's worst case: nodes of router R_i send to router R_i+1 (same node index, or random with "
       "permutation = false)",
       {bool_param("traffic.permutation", true, "worst_case: node j of R_i sends to node j of R_i+1 (else to any node)")},
       [](const Config& c, const Topology& t, uint64_t, Nodes) {
         if (t.num_routers() < 2) throw ConfigError("traffic.pattern", "worst_case needs at least 2 routers");
         return std::make_unique<AdversarialPattern>(t.num_nodes(), t.num_nodes() / t.num_routers(), 1,
                                                     c.get_bool("traffic.permutation"));
       }},
      {"wc_hot", "003's WC-Hot n: all nodes of group g send to the same n random nodes of group g+1",
       {int_param("traffic.hot_nodes", 1, "wc_hot: hot nodes n per group", 1, 1 << 20)},
       [](const Config& c, const Topology& t, uint64_t seed, Nodes) {
         return std::make_unique<WcHotPattern>(t.num_nodes(), pattern_group_size(t),
                                               static_cast<int>(c.get_int("traffic.hot_nodes")), seed);
       }},
      {"hot_region", "001's hot region: hot_fraction of the traffic to the first hot_region share of the nodes, the "
       "rest uniform over all nodes",
       {float_param("traffic.hot_fraction", 0.25, "hot_region: share of messages sent to the hot region", 0.0, 1.0),
        float_param("traffic.hot_region", 0.125, "hot_region: share of the nodes (lowest ids) in the hot region", 0.0,
                    1.0)},
       [](const Config& c, const Topology& t, uint64_t, Nodes) {
         return std::make_unique<HotRegionPattern>(t.num_nodes(), c.get_float("traffic.hot_fraction"),
                                                   c.get_float("traffic.hot_region"));
       }},
      {"hotspot", "N sources send to M destinations, both drawn at random (disjoint, seeded) from the class's nodes; "
       "other nodes are silent",
       {int_param("traffic.hotspot_sources", 60, "hotspot: sending nodes N; 0 = every class node not a destination",
                  0, 1 << 24),
        int_param("traffic.hotspot_dests", 4, "hotspot: destination nodes M", 1, 1 << 24),
        string_param("traffic.hotspot_dest_list", "", "hotspot: explicit destinations \"A,B,...\" instead of M "
                     "random ones")},
       [](const Config& c, const Topology& t, uint64_t seed, Nodes nodes) {
         std::vector<int> given;
         if (!c.get_string("traffic.hotspot_dest_list").empty())
           given = select_nodes("traffic.hotspot_dest_list", "list:" + c.get_string("traffic.hotspot_dest_list"), t,
                                seed);
         return std::make_unique<HotspotPattern>(t.num_nodes(), nodes,
                                                 static_cast<int>(c.get_int("traffic.hotspot_sources")),
                                                 static_cast<int>(c.get_int("traffic.hotspot_dests")), given, seed);
       }},
      {"permutation", "random permutation without fixed points (seeded by sim.seed)", {},
       [](const Config&, const Topology& t, uint64_t seed, Nodes) {
         return std::make_unique<PermutationPattern>(t.num_nodes(), seed);
       }},
      {"tornado", "tornado: every grid coordinate advanced by ceil(k/2)-1 (torus, mesh, flatfly)", {},
       [](const Config&, const Topology& t, uint64_t, Nodes) {
         return std::make_unique<PermutationPattern>(tornado_permutation(t));
       }},
      permutation("bitrev", "bit reversal of the node id (004); nodes mapped to themselves are silent"),
      permutation("shuffle", "perfect shuffle: node id bits rotated left (004)"),
      permutation("butterfly", "butterfly: most and least significant node id bits swapped (004)"),
      permutation("transpose", "transpose: high and low halves of the node id bits swapped"),
  };
  return v;
}

// The speculative protocols track each message by its ACKs; the key is
// accepted so one config can sweep over every protocol.
static ParamSpec acks_required() {
  return bool_param("congestion.acks", true, "every data packet is acknowledged (required: sources track messages "
                    "by their ACKs)");
}

static ProtocolEntry srp_entry(const std::string& name, const std::string& doc) {
  const bool smsrp = name == "smsrp";
  return {name, doc,
          {acks_required(),
           string_param("congestion.srp_preset", "lhrp", "parameter set: lhrp (003: 1 us timeout, every message "
                        "reserved) or cbcm (000: 2000 cycles, messages under 4 packets skip it)", {"lhrp", "cbcm"}),
           int_param("congestion.srp_timeout", 0, "queuing cycles after which a switch drops a speculative packet; "
                     "0 = preset (1000 / 2000)", 0),
           float_param("congestion.srp_overhead", 0.05, "reservation overhead adjustment: a reservation books "
                       "size * (1 + this) cycles of the ejection channel (000)", 0, 10),
           int_param("congestion.srp_min_packets", -1, "messages with fewer packets skip the protocol; -1 = preset "
                     "(0 / 4)", -1)},
          [smsrp](const Config& c) { return std::make_unique<Srp>(c, SrpParams::from_config(c, smsrp)); }};
}

const std::vector<ProtocolEntry>& protocols() {
  static const std::vector<ProtocolEntry> v = {
      {"none", "no congestion control; with acks, every data packet is acknowledged on a high-priority class (003)",
       {bool_param("congestion.acks", false, "return a 1-flit ACK for every data packet (003's baseline)")},
       [](const Config& c) { return std::make_unique<NoCongestionControl>(c.get_bool("congestion.acks")); }},
      {"ecn", "InfiniBand-style ECN: switches mark packets leaving full input buffers, ACKs carry BECN, sources "
       "raise a per-destination inter-packet delay",
       {bool_param("congestion.acks", true, "ACK every data packet (003); false: only marked packets get a BECN"),
        string_param("congestion.ecn_preset", "lhrp", "parameter set: lhrp (003 Table 1) or cbcm (000 V-A)",
                     {"lhrp", "cbcm"}),
        float_param("congestion.ecn_threshold", 0, "mark when the input VC buffer is at least this full "
                    "(fraction); 0 = preset (0.5 / 0.9)", 0, 1),
        int_param("congestion.ecn_increment", 0, "IPD increment per BECN (cycles); 0 = preset (24 / 400)", 0),
        int_param("congestion.ecn_decrement", 0, "IPD decrement per timer period (cycles); 0 = preset (24, ours / 50)",
                  0),
        int_param("congestion.ecn_timer", 0, "IPD decrement period (cycles); 0 = preset (96 / 1000)", 0),
        int_param("congestion.ecn_max", 0, "maximum IPD (cycles); 0 = preset (3048, ours / 1500)", 0)},
       [](const Config& c) { return std::make_unique<Ecn>(EcnParams::from_config(c)); }},
      {"qcn", "QCN (802.1Qau) as in 001 2.3: congestion points in switch queues send CNMs with a 6-bit feedback "
       "to the sampled packet's source, whose NIC rate limiter cuts its rate by 1 - G_d Fb and recovers every "
       "qcn_bc_limit packets",
       qcn_congestion_point_params("congestion", "qcn", "buffers sampled: switch output queues (the "
                                          "standard) or input buffers, ejection queues included",
              {
        float_param("congestion.qcn_gd", 1.0 / 128, "qcn: rate decrease G_d per unit of Fb (standard 1/128)", 0, 1),
        int_param("congestion.qcn_bc_limit", 100, "qcn: packets sent per rate-increase cycle (001: 100 frames)", 1,
                  1 << 20),
        int_param("congestion.qcn_fast_recovery", 5, "qcn: fast-recovery cycles before active increase (standard 5)",
                  0, 1 << 20),
        float_param("congestion.qcn_rai", 0.000125, "qcn: active increase of the target rate per rate-increase cycle "
                    "(qcn_bc_limit packets), fraction of line rate (standard 5 Mb/s of 40 Gb/s)", 0, 1),
        float_param("congestion.qcn_min_rate", 0.00025, "qcn: lowest rate, fraction of line rate (standard 10 Mb/s "
                    "of 40 Gb/s)", 0, 1)}),
       [](const Config& c) { return std::make_unique<Qcn>(QcnParams::from_config(c)); }},
      {"lhrp", "Last-Hop Reservation Protocol (003): speculative first, dropped only at the last-hop switch above "
       "the threshold, NACK with a retransmission time from the switch's reservation scheduler",
       {acks_required(),
        int_param("congestion.lhrp_threshold", 1000, "flits queued at the last-hop switch for an endpoint at which "
                  "its speculative packets are dropped", 1, 65535),
        bool_param("congestion.lhrp_strict", false, "drop only above the threshold (003 3.2) instead of at it (6.3)"),
        int_param("congestion.lhrp_fabric_timeout", 0, "fabric drop (003 6.1): speculative packets queued this many "
                  "cycles are dropped before the last hop, NACKed without a time; 0 = off (6.1 uses 1000)", 0),
        int_param("congestion.lhrp_coalesce_after", 2, "reservation-less NACKs of a message in a row after which "
                  "its source reserves at the last-hop switch (fabric drop)", 1, 1 << 20),
        int_param("congestion.lhrp_srp_min_flits", 0, "combined protocol (003 6.4): messages of at least this many "
                  "flits use SRP with the last-hop scheduler; 0 = off (6.4 uses 48)", 0),
        float_param("congestion.srp_overhead", 0.05, "combined protocol: SRP reservations book size * (1 + this)",
                    0, 10)},
       [](const Config& c) { return std::make_unique<Lhrp>(c); }},
      srp_entry("srp", "Speculative Reservation Protocol (003 2.2, 000 III-B): a reservation with every message, "
                "speculative packets until the granted time, dropped after a queuing timeout"),
      srp_entry("smsrp", "Small-Message SRP (003 3.1): speculative first; a drop's NACK starts the reservation"),
      {"cbcm", "Contention-based congestion management (000 IV): switches mark packets leaving outputs of "
       "sustained contention, destinations that receive only marked packets throttle their senders to 1/D_t, "
       "throttled packets go minimally on a low-priority hotspot class",
       {string_param("congestion.cbcm_variant", "dedicated", "dedicated (000 IV: throttled packets on a "
                     "low-priority hotspot class), shared (VI-B: on the data VCs, throttled to "
                     "cbcm_shared_rate/D_t) or ideal (II-B's oracle: traffic class cbcm_ideal_class on its own VCs, "
                     "routed minimally, no throttling)", {"dedicated", "shared", "ideal"}),
        bool_param("congestion.cbcm_throttle", true, "limit throttled flows to 1/D_t; false keeps only the hotspot "
                   "class and minimal routing (000 VI-C)"),
        float_param("congestion.cbcm_shared_rate", 0.99, "shared variant: throttled rate times D_t (000 VI-B)", 0.001,
                    1),
        string_param("congestion.cbcm_ideal_class", "hotspot", "ideal variant: name of the traffic class isolated "
                     "and routed minimally"),
        string_param("congestion.cbcm_degree", "randomized", "contention degree: randomized (one random requesting "
                     "VC per input counts 1) or weighted (an input's v requesting VCs count 1/v each) (000 IV-B1)",
                     {"randomized", "weighted"}),
        string_param("congestion.cbcm_requests", "va_and_active", "what requests an output: heads waiting for an "
                     "output VC and packets holding one with a flit to move, or only the former (ours)",
                     {"va_and_active", "va_only"}),
        bool_param("congestion.cbcm_count_hotspot_class", true, "requests of throttled packets (hotspot class) "
                   "count in the contention degree (spec A.5.2); control packets never count (ours)"),
        int_param("congestion.cbcm_samples", 100, "NumSamples: cycles in the moving average of the degree (000)", 1,
                  4096),
        int_param("congestion.cbcm_bound_interval", 10, "BoundSampleInterval: cycles per max/min sample (000)", 1,
                  4096),
        int_param("congestion.cbcm_bound_samples", 10, "max/min samples in their moving averages (000 V-D)", 1, 4096),
        int_param("congestion.cbcm_dest_epoch", 2000, "destination observation epoch in cycles (ours; docs/congestion.md "
                  "gives the sensitivity)", 1, 1 << 30),
        int_param("congestion.cbcm_src_epoch", 10000, "source epoch over which the generation rate decides "
                  "unthrottling, cycles (ours)", 1, 1 << 24),
        string_param("congestion.cbcm_epoch_restart", "first_throttle", "which THROTTLE restarts a source's epoch: "
                     "the first (ours; a new D_t only resets the tokens) or every_throttle (spec A.5.7, the RTL; "
                     "sources never unthrottle while D_t changes faster than the epoch)",
                     {"first_throttle", "every_throttle"}),
        string_param("congestion.cbcm_hotspot_exit", "unmarked_epoch", "when a hotspot stops being one: when its "
                     "list empties (000; under UR a false hotspot keeps hearing from new senders) or also after a "
                     "destination epoch with an unmarked packet (ours)", {"list_empty", "unmarked_epoch"}),
        string_param("congestion.cbcm_detection", "destination", "where endpoint congestion is detected: at the "
                     "destination (000 IV) or early, also at intermediate routers with a metric per destination node "
                     "(000 VI-A; the routers' THROTTLEs raise D_t only)", {"destination", "early"}),
        int_param("congestion.cbcm_router_epoch", 0, "early detection: the routers' observation epoch in cycles; 0 = "
                  "cbcm_dest_epoch (ours)", 0, 1 << 30),
        int_param("congestion.cbcm_min_dt", 2, "least number of listed sources that makes a hotspot (ours: 000 "
                  "V-B never throttles with D_t = 1)", 1, 1 << 24),
        float_param("congestion.cbcm_epsilon", 0.05, "control bandwidth share: after D_t throttle packets none for "
                    "D_t/epsilon cycles (000's example value)", 0, 1),
        float_param("congestion.cbcm_true_hotspot_load", 2.0, "statistics only: a destination offered more "
                    "flits/cycle than this in the window is a true hotspot; throttling towards any other counts as "
                    "wrong (wrongly_throttled_fraction; ours: UR offers ~load +- noise, a 4:1 hotspot 4)", 0, 1e9),
        int_param("congestion.cbcm_table_entries", 16, "throttled destinations a source tracks; a throttle beyond "
                  "them is ignored and counted (ours)", 1, 4096)},
       [](const Config& c) { return std::make_unique<Cbcm>(CbcmParams::from_config(c)); }},
      {"selftune", "Self-tuned source throttling (004): a side-band gathers the global count of full VC buffers "
       "and delivered flits every g = (k/2)*h*n cycles; nodes stop injecting while the extrapolated count exceeds "
       "a threshold, tuned by hill climbing on throughput (torus only)",
       {string_param("congestion.selftune_mode", "tune", "tune: hill-climbing threshold (004 4); static: fixed "
                     "selftune_threshold (004 Fig. 5)", {"tune", "static"}),
        int_param("congestion.selftune_threshold", 250, "static mode: the threshold in full VC buffers (004 Fig. 5: "
                  "50 and 250)", 0),
        string_param("congestion.selftune_estimator", "linear", "congestion estimate between snapshots: linear "
                     "extrapolation from the last two (004) or the last one", {"linear", "last"}),
        int_param("congestion.selftune_hop_delay", 2, "side-band neighbour-to-neighbour delay h in cycles (004)", 1,
                  1 << 20),
        int_param("congestion.selftune_sideband_width", 25, "side-band channel width in bits; narrower than "
                  "count_bits + throughput_bits sends a word in several beats, adding beats - 1 cycles per hop "
                  "(004: 25, or 9 in its report; the beat timing is ours)", 1, 64),
        int_param("congestion.selftune_count_bits", 12, "full-buffer field width; must hold the network's VC buffer count (004: 12 for 3,072)", 1, 31),
        int_param("congestion.selftune_throughput_bits", 13, "delivered-flits field width; sums saturate (004: 13)", 1,
                  31),
        int_param("congestion.selftune_tune_period", 96, "tuning period in cycles, rounded up to a multiple of the "
                  "gather duration (004: 96)", 1),
        float_param("congestion.selftune_initial", 0.01, "first threshold, fraction of all VC buffers (004: 1%)", 0, 1),
        float_param("congestion.selftune_increment", 0.01, "threshold increment, fraction of all VC buffers (004: "
                    "1%)", 0, 1),
        float_param("congestion.selftune_decrement", 0.04, "threshold decrement, fraction of all VC buffers (004: "
                    "4%)", 0, 1),
        float_param("congestion.selftune_drop", 0.25, "a period's throughput below (1 - this) of the previous "
                    "period's is a drop (004: 25%)", 0, 1),
        string_param("congestion.selftune_throttling", "period", "\"currently throttling?\" of Table 1: the estimate "
                     "exceeded the threshold in some cycle of the tuning period (spec default) or at the decision "
                     "(spec option)", {"period", "decision"}),
        bool_param("congestion.selftune_local_max", true, "local-maximum avoidance (004 4.2): reset the threshold to "
                   "min(T_max, N_max) on a significant drop below the best throughput"),
        float_param("congestion.selftune_max_drop", 0.25, "a period's throughput below (1 - this) of the best is "
                    "significant (ours: 004 says \"significantly\")", 0, 1),
        int_param("congestion.selftune_resets", 5, "consecutive resets after which the best throughput is "
                  "forgotten (004: r = 5)", 1, 1 << 20)},
       [](const Config& c) { return std::make_unique<SelfTune>(SelfTuneParams::from_config(c)); }},
      {"alo", "At-Least-One (Baydal et al., 004's comparison): a node injects only when every useful (minimal) "
       "output channel of its router has a free VC or some useful channel has all its VCs free",
       {},
       [](const Config&) { return std::make_unique<Alo>(); }},
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
  static const std::vector<ParamSpec> v = with(hw::hardware_params(), {
      string_param("topology.kind", "dragonfly", "topology", {"dragonfly", "flatfly", "torus", "mesh"}),
      // [router]
      int_param("router.vcs", 4, "VCs per class on every port (each routing algorithm needs a minimum: see ccsim list)", 1, 32),
      int_param("router.buffer_depth", 32, "input buffer per VC in flits (terminal ports, and default)", 1, 1 << 20),
      int_param("router.local_buffer_depth", 0, "input buffer per VC on local ports; 0 = buffer_depth", 0, 1 << 20),
      int_param("router.global_buffer_depth", 256, "input buffer per VC on global ports; 0 = buffer_depth", 0,
                1 << 20),
      int_param("router.output_buffer", 32, "output queue per VC in flits (CIOQ)", 1, 1 << 20),
      int_param("router.latency", 3, "cycles from a head flit's arrival to its departure at zero load", 1, 1000),
      int_param("router.speedup", 1, "internal speedup: flits per cycle each input and output may move", 1, 16),
      string_param("router.switching", "vct", "virtual cut-through or wormhole", {"vct", "wormhole"}),
      bool_param("router.voq", false, "virtual output queues at each input VC"),
      string_param("router.occupancy", "credits", "port occupancy seen by adaptive routing: output queue plus the "
                   "credits in use (credits) or plus the flits in the downstream buffer (downstream: an ideal "
                   "estimate for long channels, where credits in flight dominate)", {"credits", "downstream"}),
      // [links]
      int_param("links.terminal_latency", 1, "injection/ejection channel latency (cycles)", 1, 1 << 24),
      int_param("links.local_latency", 10,
                "local channel latency (cycles): intra-group on the dragonfly, every router-to-router channel on "
                "the flattened butterfly", 1, 1 << 24),
      int_param("links.global_latency", 100, "global channel latency (cycles)", 1, 1 << 24),
      // [routing]
      string_param("routing.algorithm", "min", "routing algorithm (see ccsim list)"),
      string_param("routing.deadlock", "avoidance", "deadlock handling: avoidance (the routing algorithm's VC "
                   "rules alone) or recovery (Disha-style: a head blocked deadlock_timeout cycles takes the "
                   "circulating token and drains through a per-router deadlock buffer; docs/model.md)",
                   {"avoidance", "recovery"}),
      int_param("routing.deadlock_timeout", 8, "recovery: cycles a head waits for an output VC before it is "
                "presumed deadlocked (004: 8)", 1, 1 << 24),
      // [traffic]
      string_param("traffic.pattern", "uniform", "traffic pattern (see ccsim list)"),
      float_param("traffic.load", 0.1, "offered load per source node (flits/node/cycle)", 0.0, 1.0),
      int_param("traffic.packet_size", 1, "flits per packet", 1, 4096),
      int_param("traffic.message_size", 1, "packets per message", 1, 1 << 16),
      string_param("traffic.injection", "bernoulli",
                   "message arrivals: bernoulli, or onoff bursts (burst_length messages at burst_rate, then an off "
                   "period that keeps the average at load)",
                   {"bernoulli", "onoff"}),
      float_param("traffic.burst_length", 8, "onoff: mean messages per burst", 1, 1e9),
      float_param("traffic.burst_rate", 1.0, "onoff: flits/cycle a node offers during a burst (>= load)", 1e-9, 1.0),
      string_param("traffic.name", "default", "name of the traffic class in the results (classes.<name>)"),
      string_param("traffic.nodes", "all", "nodes of the class: all, rest (not in another class), random:N, "
                   "range:A-B, router_index:A[-B], list:A,B,... or a TOML array"),
      int_param("traffic.start", 0, "cycle the class starts generating (or a time such as \"20us\")", 0),
      int_param("traffic.stop", 0, "cycle the class stops generating; 0 = never", 0),
      // [congestion]
      string_param("congestion.protocol", "none", "congestion-control protocol (see ccsim list)"),
      // [sim]
      int_param("sim.seed", 1, "random seed; same seed and config give identical results", 0),
      int_param("sim.warmup", 2000, "warm-up cycles before measurement", 0),
      int_param("sim.measure", 10000, "measurement window (cycles)", 1),
      int_param("sim.drain_cap", 0, "max cycles to drain packets created in the window; 0 = 4*measure", 0),
      int_param("sim.deadlock_cycles", 20000, "cycles without any flit movement, with flits in the network, "
                "that count as deadlock", 100),
      float_param("sim.clock_ghz", 1.0, "clock frequency, for latencies given in ns/us", 1e-6, 1e3),
      int_param("sim.series_window", 0, "time-series window in cycles or a time such as \"1us\" (latency, throughput, "
                "misrouting per class); 0 = no time series", 0),
      string_param("sim.kernel", "direct", "advance time directly or from a SystemC thread under sc_start",
                   {"direct", "systemc"}),
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
