// k-ary n-flat flattened butterfly (Kim, Dally, Abts, ISCA'07) as used in
// ../shared/papers/000 section V-A: k^n routers on an n-dimensional grid, each
// connected to every router that differs from it in exactly one coordinate,
// c nodes per router.
//
// Router r has coordinates x_d = (r / k^d) % k, so r = x0 + k*(x1 + k*(x2 ...));
// node id = r*c + terminal port. Ports of every router:
//   [0, c-1]                          terminals (node r*c + port)
//   [c + d*(k-1), c + (d+1)*(k-1) - 1] dimension d: port c + d*(k-1) + j leads
//                                     to the router whose coordinate d is
//                                     j if j < x_d, else j + 1 (others equal)
// Router-to-router channels are PortKind::Local (links.local_latency,
// router.local_buffer_depth): the topology has no second channel class.
#pragma once
#include <vector>

#include "topology/topology.h"

namespace ccsim {

class FlattenedButterfly : public Topology {
 public:
  FlattenedButterfly(int k, int n, int c);
  static FlattenedButterfly from_config(const Config& cfg);

  int num_routers() const override { return routers_; }
  int num_nodes() const override { return routers_ * c_; }
  int radix(int) const override { return c_ + n_ * (k_ - 1); }
  PortKind port_kind(int, int port) const override { return port < c_ ? PortKind::Terminal : PortKind::Local; }
  PortPeer peer(int router, int port) const override;
  int node_router(int node) const override { return node / c_; }
  int node_port(int node) const override { return node % c_; }
  // One hop per coordinate in which the routers differ.
  int min_hops(int from_router, int to_router) const override;
  int diameter() const override { return n_; }
  std::vector<int> grid_shape() const override { return std::vector<int>(n_, k_); }

  int k() const { return k_; }
  int n() const { return n_; }
  int c() const { return c_; }
  int coordinate(int router, int dim) const { return router / stride_[dim] % k_; }
  // Output port of `router` to the router equal to it except for coordinate
  // `x` (!= its own) in dimension `dim`.
  int port_to(int router, int dim, int x) const;
  // Next port on the dimension-order (lowest dimension first) route from
  // `router` to router `target`; -1 if they are the same router.
  int dor_port(int router, int target) const;

 private:
  int k_, n_, c_, routers_;
  std::vector<int> stride_;  // k^d
};

}  // namespace ccsim
