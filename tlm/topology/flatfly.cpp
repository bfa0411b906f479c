#include "topology/flatfly.h"
#include "registry.h"

#include <fmt/format.h>

#include <cstdint>

namespace ccsim {

namespace {

constexpr int kMaxRadix = 64;           // the router's per-port bit masks (core/router.cpp)
constexpr int64_t kMaxNodes = 1 << 24;  // node ids and per-node state stay within reason

}  // namespace

FlattenedButterfly::FlattenedButterfly(int k, int n, int c) : k_(k), n_(n), c_(c) {
  if (k < 2) throw ConfigError("topology.k", fmt::format("routers per dimension must be >= 2, got {}", k));
  if (n < 1) throw ConfigError("topology.n", fmt::format("dimensions must be >= 1, got {}", n));
  if (c < 1) throw ConfigError("topology.c", fmt::format("nodes per router must be >= 1, got {}", c));
  if (c + static_cast<int64_t>(n) * (k - 1) > kMaxRadix)
    throw ConfigError(
        "topology.k",
        fmt::format("router radix c + n*(k-1) = {} + {}*{} exceeds the router's limit of {}", c, n, k - 1, kMaxRadix));
  int64_t routers = 1;
  for (int d = 0; d < n; ++d) {
    stride_.push_back(static_cast<int>(routers));
    routers *= k;
    if (routers * c > kMaxNodes)
      throw ConfigError("topology.n",
                        fmt::format("k^n * c nodes exceeds {} (k = {}, n = {}, c = {})", kMaxNodes, k, n, c));
  }
  routers_ = static_cast<int>(routers);
}

FlattenedButterfly FlattenedButterfly::from_config(const Config& cfg) {
  return FlattenedButterfly(static_cast<int>(cfg.get_int("topology.k")), static_cast<int>(cfg.get_int("topology.n")),
                            static_cast<int>(cfg.get_int("topology.c")));
}

PortPeer FlattenedButterfly::peer(int router, int port) const {
  PortPeer pp;
  if (port < c_) {
    pp.is_node = true;
    pp.id = router * c_ + port;
    return pp;
  }
  const int dim = (port - c_) / (k_ - 1), j = (port - c_) % (k_ - 1);
  const int own = coordinate(router, dim), x = j < own ? j : j + 1;
  pp.id = router + (x - own) * stride_[dim];
  pp.port = port_to(pp.id, dim, own);
  return pp;
}

int FlattenedButterfly::port_to(int router, int dim, int x) const {
  const int own = coordinate(router, dim);
  return c_ + dim * (k_ - 1) + (x < own ? x : x - 1);
}

int FlattenedButterfly::min_hops(int from_router, int to_router) const {
  int hops = 0;
  for (int d = 0; d < n_; ++d) hops += coordinate(from_router, d) != coordinate(to_router, d);
  return hops;
}

int FlattenedButterfly::dor_port(int router, int target) const {
  for (int d = 0; d < n_; ++d) {
    const int x = coordinate(target, d);
    if (coordinate(router, d) != x) return port_to(router, d, x);
  }
  return -1;  // router == target: no router-to-router hop
}

TopologyEntry flatfly_topology_entry() {
  return TopologyEntry{
      "flatfly",
      "k-ary n-flat flattened butterfly: k^n routers, each linked to every router differing in one "
      "coordinate, c nodes each; router-to-router channels are local (links.local_latency)",
      {int_param("topology.k", 4, "routers per dimension", 2, 64), int_param("topology.n", 2, "dimensions", 1, 63),
       int_param("topology.c", 4, "nodes per router (concentration); radix c + n*(k-1) must be <= 64", 1, 63)},
      [](const Config& c) { return std::make_unique<FlattenedButterfly>(FlattenedButterfly::from_config(c)); }};
}

}  // namespace ccsim
