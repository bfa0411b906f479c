#include "topology/torus.h"
#include "registry.h"

#include <fmt/format.h>

#include <cassert>
#include <cstdlib>

namespace ccsim {

Torus::Torus(int k, int n, int c, bool wrap) : k_(k), n_(n), c_(c), wrap_(wrap) {
  if (k < 2) throw ConfigError("topology.k", fmt::format("must be >= 2, got {}", k));
  if (n < 1) throw ConfigError("topology.n", fmt::format("must be >= 1, got {}", n));
  if (c < 1) throw ConfigError("topology.c", fmt::format("must be >= 1, got {}", c));
  if (c + 2 * n > 64)
    throw ConfigError("topology.c", fmt::format("c + 2n (the router radix) must be at most 64, got {}", c + 2 * n));
  int64_t routers = 1;
  for (int d = 0; d < n; ++d) {
    stride_.push_back(static_cast<int>(routers));
    routers *= k;
    if (routers * c > (int64_t{1} << 24))
      throw ConfigError("topology.k",
                        fmt::format("k^n * c must be at most 2^24 nodes (k = {}, n = {}, c = {})", k, n, c));
  }
  routers_ = static_cast<int>(routers);
}

Torus Torus::from_config(const Config& cfg, bool wrap) {
  return Torus(static_cast<int>(cfg.get_int("topology.k")), static_cast<int>(cfg.get_int("topology.n")),
               static_cast<int>(cfg.get_int("topology.c")), wrap);
}

PortPeer Torus::peer(int router, int port) const {
  PortPeer pp;
  if (port < c_) {
    pp.is_node = true;
    pp.id = router * c_ + port;
    return pp;
  }
  const int dim = (port - c_) / 2;
  const int dir = (port - c_) % 2 == 0 ? 1 : -1;
  const int x = coord(router, dim);
  const int to = x + dir;
  if (!wrap_ && (to < 0 || to >= k_)) return pp;  // mesh edge: unconnected
  const int wrapped = (to + k_) % k_;
  pp.id = router + (wrapped - x) * stride_[dim];
  pp.port = this->port(dim, -dir);
  return pp;
}

int Torus::distance(int from, int to) const {
  const int d = std::abs(to - from);
  return wrap_ && k_ - d < d ? k_ - d : d;
}

int Torus::direction(int from, int to) const {
  assert(from != to);
  if (!wrap_) return to > from ? 1 : -1;
  const int up = (to - from + k_) % k_;  // channels going +
  if (2 * up == k_) return 0;
  return 2 * up < k_ ? 1 : -1;
}

int Torus::min_hops(int from_router, int to_router) const {
  int hops = 0;
  for (int d = 0; d < n_; ++d) hops += distance(coord(from_router, d), coord(to_router, d));
  return hops;
}

namespace {
std::vector<ParamSpec> torus_params() {
  return {int_param("topology.k", 16, "routers per dimension", 2, 1 << 24),
          int_param("topology.n", 2, "dimensions", 1, 31), int_param("topology.c", 1, "nodes per router", 1, 64)};
}
}  // namespace

TopologyEntry torus_topology_entry() {
  return TopologyEntry{
      "torus",
      "k-ary n-cube torus: k routers per dimension, n dimensions, rings of wrap-around channels, c nodes "
      "per router; router-to-router channels are local (links.local_latency, router.local_buffer_depth)",
      torus_params(), [](const Config& c) { return std::make_unique<Torus>(Torus::from_config(c, true)); }};
}

TopologyEntry mesh_topology_entry() {
  return TopologyEntry{"mesh", "k-ary n-cube mesh: the torus without wrap-around channels", torus_params(),
                       [](const Config& c) { return std::make_unique<Torus>(Torus::from_config(c, false)); }};
}

}  // namespace ccsim
