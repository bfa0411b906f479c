// Traffic generation: a SystemC module with one TLM-2.0 initiator socket per
// node, bound to that node's NIC. Each source node draws Bernoulli message
// arrivals (per cycle probability load / message flits) as geometric gaps, so
// idle cycles cost nothing; a heap orders the next arrival of every node.
#pragma once
#include <memory>
#include <queue>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "core/message.h"
#include "core/rng.h"
#include "core/types.h"
#include "traffic/traffic_pattern.h"

namespace ccsim {

struct TrafficClassSpec {
  std::string name = "default";
  TrafficPattern* pattern = nullptr;
  double load = 0;  // flits/node/cycle offered by each source node
  int packets = 1;  // message size in packets
  int packet_size = 1;
  Cycle start = 0, stop = INT64_MAX;
};

class TrafficSource : public sc_core::sc_module {
 public:
  using Socket = tlm_utils::simple_initiator_socket<TrafficSource>;
  std::vector<std::unique_ptr<Socket>> sockets;  // one per node

  TrafficSource(sc_core::sc_module_name name, int nodes, uint64_t seed);
  void add_class(const TrafficClassSpec& spec);

  // Hands every message due in cycle `now` to its NIC.
  void generate(Cycle now);
  Cycle next_event() const { return heap_.empty() ? INT64_MAX : heap_.top().at; }

 private:
  struct Event {
    Cycle at;
    int node;
    int cls;
    bool operator>(const Event& o) const {
      return at != o.at ? at > o.at : cls != o.cls ? cls > o.cls : node > o.node;
    }
  };
  void schedule(int node, int cls, Cycle from);
  int nodes_;
  uint64_t seed_;
  std::vector<TrafficClassSpec> classes_;
  std::vector<std::vector<Rng>> rng_;  // per class, per node
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> heap_;
  tlm::tlm_generic_payload trans_;
  MessageRequest req_;
};

}  // namespace ccsim
