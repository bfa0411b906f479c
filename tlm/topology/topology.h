// Topology: which router port leads where. The router core knows nothing of
// dragonflies; routing functions know their topology's concrete class.
#pragma once
#include <string>
#include <vector>

#include "core/params.h"
#include "core/types.h"

namespace ccsim {

struct PortPeer {
  bool is_node = false;  // true: a terminal (NIC) port
  int id = -1;           // router or node id
  int port = -1;         // input port on the peer router (-1 for nodes)
};

class Topology {
 public:
  virtual ~Topology() = default;
  virtual int num_routers() const = 0;
  virtual int num_nodes() const = 0;
  virtual int radix(int router) const = 0;
  virtual PortKind port_kind(int router, int port) const = 0;
  // Other end of a router's output port (channels are bidirectional pairs: the
  // peer's same-numbered output leads back).
  virtual PortPeer peer(int router, int port) const = 0;
  virtual int node_router(int node) const = 0;
  virtual int node_port(int node) const = 0;
  // Router-to-router channels on a shortest path between two routers.
  virtual int min_hops(int from_router, int to_router) const = 0;
  virtual int diameter() const = 0;
  // Grid topologies (torus, mesh, flattened butterfly) place routers on a grid
  // of these extents: router id = x0 + k0*(x1 + k1*(x2 ...)), and node id =
  // router * nodes_per_router + index. Empty for other topologies.
  virtual std::vector<int> grid_shape() const { return {}; }

  int latency(PortKind k) const {
    return k == PortKind::Terminal ? terminal_latency : k == PortKind::Local ? local_latency : global_latency;
  }
  int terminal_latency = 1, local_latency = 1, global_latency = 1;
};

}  // namespace ccsim
