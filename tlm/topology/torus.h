// k-ary n-cube: a torus (rings in every dimension, the network of
// ../shared/papers/004 section 5.1: 16-ary 2-cube) or, without the wrap-around
// channels, a mesh. k routers per dimension, n dimensions, c nodes per router.
//
// Router id = x0 + k*(x1 + k*(x2 ...)); node id = router*c + index.
// Ports of every router:
//   [0, c-1]         terminals (node router*c + port)
//   c + 2d           dimension d, + direction: to x_d + 1 (mod k), its port c + 2d + 1
//   c + 2d + 1       dimension d, - direction: to x_d - 1 (mod k), its port c + 2d
// Router-to-router channels are PortKind::Local (links.local_latency, buffers of
// router.local_buffer_depth). On a mesh the + port of x_d = k-1 and the - port
// of x_d = 0 are unconnected (no peer): every router has the same radix.
#pragma once
#include <vector>

#include "topology/topology.h"

namespace ccsim {

class Torus : public Topology {
 public:
  Torus(int k, int n, int c, bool wrap);
  static Torus from_config(const Config& cfg, bool wrap);

  int num_routers() const override { return routers_; }
  int num_nodes() const override { return routers_ * c_; }
  int radix(int) const override { return c_ + 2 * n_; }
  PortKind port_kind(int, int port) const override { return port < c_ ? PortKind::Terminal : PortKind::Local; }
  PortPeer peer(int router, int port) const override;
  int node_router(int node) const override { return node / c_; }
  int node_port(int node) const override { return node % c_; }
  int min_hops(int from_router, int to_router) const override;
  int diameter() const override { return n_ * (wrap_ ? k_ / 2 : k_ - 1); }
  std::vector<int> grid_shape() const override { return std::vector<int>(n_, k_); }

  int k() const { return k_; }
  int n() const { return n_; }
  int c() const { return c_; }
  bool wrap() const { return wrap_; }
  int coord(int router, int dim) const { return router / stride_[dim] % k_; }
  // k^dim: how far apart router ids are along dimension `dim`.
  int stride(int dim) const { return stride_[dim]; }
  // Output port towards the neighbour in dimension `dim`, direction +1 or -1.
  int port(int dim, int dir) const { return c_ + 2 * dim + (dir > 0 ? 0 : 1); }
  // Channels on a shortest way from coordinate `from` to `to` of one dimension.
  int distance(int from, int to) const;
  // Direction (+1 or -1) of the shortest way from `from` to `to` (from != to);
  // 0 on a torus when both ways are k/2 channels long: the caller breaks the tie.
  int direction(int from, int to) const;

 private:
  int k_, n_, c_;
  bool wrap_;
  int routers_;
  std::vector<int> stride_;  // k^d
};

}  // namespace ccsim
