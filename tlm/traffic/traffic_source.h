// Traffic generation: a SystemC module with one TLM-2.0 initiator socket per
// node, bound to that node's NIC. Each traffic class draws message arrivals at
// its source nodes as geometric gaps (Bernoulli process, or on/off bursts) or
// at a fixed interval (periodic), so idle cycles cost nothing; a heap orders
// the next arrival of every (class, node). A class may change pattern and load
// at given cycles (phases): a phase switch redraws every node's next arrival of
// that class. A NIC may refuse a message (its source queue is full): the
// attempt is over, as 004's node that "tries to generate" a packet.
#pragma once
#include <memory>
#include <queue>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "core/message.h"
#include "core/rng.h"
#include "core/types.h"
#include "traffic/traffic_pattern.h"

namespace ccsim {

struct TrafficPhase {
  Cycle at = 0;  // first cycle of the phase
  TrafficPattern* pattern = nullptr;
  double load = 0;  // flits/node/cycle offered by each source node
  int packets = 1;  // message size in packets
  int packet_size = 1;
  enum class Arrivals { Bernoulli, Periodic, OnOff } arrivals = Arrivals::Bernoulli;
  double burst_length = 1, burst_rate = 1;  // onoff: mean messages per burst, flits/cycle in a burst
};

struct TrafficClassSpec {
  std::string name = "default";
  std::vector<int> nodes;            // the class's nodes (sources are those its pattern allows)
  std::vector<TrafficPhase> phases;  // by increasing `at`; phases[0].at is the class's start
  Cycle stop = INT64_MAX;
};

class TrafficSource : public sc_core::sc_module {
 public:
  using Socket = tlm_utils::simple_initiator_socket<TrafficSource>;
  std::vector<std::unique_ptr<Socket>> sockets;  // one per node

  TrafficSource(sc_core::sc_module_name name, int nodes, uint64_t seed);
  void add_class(const TrafficClassSpec& spec);

  // Hands every message due in cycle `now` to its NIC.
  void generate(Cycle now);
  // Hands one message to `node`'s NIC (motifs send this way).
  void send(int node, const MessageRequest& req);
  Cycle next_event() const { return heap_.empty() ? INT64_MAX : heap_.top().at; }

 private:
  struct Event {
    Cycle at;
    int cls;
    int node;  // -1: the class's next phase begins
    uint32_t epoch;
    bool operator>(const Event& o) const { return at != o.at ? at > o.at : cls != o.cls ? cls > o.cls : node > o.node; }
  };
  struct ClassState {
    TrafficClassSpec spec;
    size_t phase = 0;
    uint32_t epoch = 0;               // events of older phases are stale
    std::vector<Rng> rng;             // per node
    std::vector<int64_t> burst_left;  // per node, onoff (a mean burst may be 1e9 messages)
    std::vector<double> due;          // per node, periodic: the exact time of the next message
  };
  void start_phase(int cls, Cycle from);
  void schedule(int node, int cls, Cycle from);
  int nodes_;
  uint64_t seed_;
  std::vector<ClassState> classes_;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> heap_;
  // Each socket's bound NIC, contiguous: going through the sockets costs two cold pointer loads per message.
  std::vector<tlm::tlm_fw_transport_if<>*> targets_;
  tlm::tlm_generic_payload trans_;
  MessageRequest req_;
};

}  // namespace ccsim
