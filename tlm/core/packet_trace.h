// Packet traces (sim.trace = "packets"): the life of every traced packet --
// created, injected, each router it crossed (input port and VC, output port
// and VC, cycles waited beyond the pipeline), dropped, taken back for a
// resend, delivered -- written at the end of the run as Chrome trace-event
// JSON (Perfetto, chrome://tracing) and as CSV. A filter picks the packets
// (nodes, class, creation window, a sampled share); control packets answering
// a traced packet are traced too. Untraced packets cost one flag test per hop.
#pragma once
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/packet.h"
#include "core/params.h"
#include "core/types.h"
#include "topology/topology.h"

namespace ccsim {

struct PacketTraceFilter {
  std::vector<bool> node;     // per node: a packet from or to it is traced
  int traffic_class = -1;     // -1: every class
  Cycle start = 0, stop = 0;  // creation cycles [start, stop); stop 0: no end
  double sample = 1.0;        // share of the packets that pass the rest
  uint64_t seed = 0;
};

class PacketTrace {
 public:
  // `file` is the JSON path; the CSV goes beside it (its .json replaced by .csv).
  PacketTrace(PacketTraceFilter filter, std::string file, int64_t max_events, int router_latency, double clock_ghz);
  // The trace sim.trace asks for, or null when it is off; `class_names` are
  // the traffic classes by index. Throws ConfigError on a bad filter, or on a
  // sim.trace_* key set while the trace is off.
  static std::unique_ptr<PacketTrace> from_config(const Config& cfg, const Topology& topo,
                                                  const std::vector<std::string>& class_names, int router_latency);

  // A data packet was created: traced when the filter takes it.
  void created(Packet& p, Cycle now);
  // A control packet answering packet `ref` was created: traced when `ref` is.
  void control_created(Packet& p, const Packet& ref, Cycle now);
  void injected(const Packet& p, Cycle now) { add(Event::Injected, p, now); }
  // The head reached input `port`, VC `vc`, of router `router`.
  void arrived(const Packet& p, int router, int port, int vc, Cycle now) {
    add(Event::Arrived, p, now, router, port, vc);
  }
  // The head left router `router` on output `port` (of kind `kind`), VC `vc`.
  void departed(const Packet& p, int router, int port, int vc, PortKind kind, Cycle now) {
    add(Event::Departed, p, now, router, port, vc, kind);
  }
  void dropped(const Packet& p, int router, Cycle now) { add(Event::Dropped, p, now, router); }
  void resent(const Packet& p, Cycle now) { add(Event::Resent, p, now); }
  void delivered(const Packet& p, int node, Cycle now) { add(Event::Delivered, p, now, node); }

  // Writes both files; returns what the results say about them.
  nlohmann::json write() const;

 private:
  enum class Event : uint8_t { Created, Injected, Arrived, Departed, Dropped, Resent, Delivered };
  struct Record {
    Cycle at;
    uint64_t packet;
    int32_t where;  // router (node for Delivered), or -1
    int16_t port, vc;
    int32_t wait;  // Departed: cycles waited beyond the router's pipeline
    Event event;
    PortKind kind;
  };
  struct Info {
    int32_t src, dst, size;
    int16_t traffic_class;
    PacketKind kind;
    uint64_t ref;   // control packets: the packet they answer
    Cycle created;  // its message entered the source queue
    Cycle arrived;  // its head reached the router it is in
  };
  void add(Event e, const Packet& p, Cycle now, int where = -1, int port = -1, int vc = -1,
           PortKind kind = PortKind::Terminal);
  void start(Packet& p, uint64_t ref, Cycle now);
  bool full(Cycle now);
  void write_json(const std::string& path) const;
  void write_csv(const std::string& path) const;
  // Records grouped by packet (time order within one), for the writers.
  std::vector<const Record*> by_packet() const;
  double us(Cycle c) const { return static_cast<double>(c) / clock_ghz_ / 1000.0; }

  PacketTraceFilter filter_;
  std::string file_;
  int64_t max_events_;
  int router_latency_;
  double clock_ghz_;
  std::vector<Record> records_;
  std::unordered_map<uint64_t, Info> packets_;
  bool truncated_ = false;
  Cycle truncated_at_ = 0;
};

}  // namespace ccsim
