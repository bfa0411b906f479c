#include "topology/dragonfly.h"
#include "registry.h"

#include <fmt/format.h>

namespace ccsim {

Dragonfly::Dragonfly(int p, int a, int h, int groups, Arrangement arr) : p_(p), a_(a), h_(h), g_(groups), arr_(arr) {
  if (p < 1) throw ConfigError("topology.p", fmt::format("must be >= 1, got {}", p));
  if (a < 1) throw ConfigError("topology.a", fmt::format("must be >= 1, got {}", a));
  if (h < 0) throw ConfigError("topology.h", fmt::format("must be >= 0, got {}", h));
  if (groups < 1 || groups > a * h + 1)
    throw ConfigError("topology.groups", fmt::format("must be between 1 and a*h+1 = {}, got {}", a * h + 1, groups));
  if (groups > 1 && (a * h) % (groups - 1) != 0)
    throw ConfigError("topology.groups",
                      fmt::format("groups-1 must divide a*h = {} so every pair of groups gets the same "
                                  "number of global channels; got groups = {}",
                                  a * h, groups));
  // Before any table is sized: the router's per-port bit masks stop at 64 ports
  // (core/router.cpp), which also bounds the tables below.
  if (p + (a - 1) + h > 64)
    throw ConfigError("topology.p", fmt::format("router radix p + (a-1) + h = {} + {} + {} = {} exceeds the router's "
                                                "limit of 64",
                                                p, a - 1, h, p + (a - 1) + h));
  port_to_group_.assign(static_cast<size_t>(num_routers()) * g_, -1);
  for (int r = 0; r < num_routers(); ++r)
    for (int t = 0; t < g_; ++t) {
      if (t == group_of(r)) continue;
      int er, ep;
      global_exit(group_of(r), t, 0, er, ep);
      port_to_group_[static_cast<size_t>(r) * g_ + t] =
          static_cast<int16_t>(er == r ? ep : local_port(index_in_group(r), index_in_group(er)));
    }
  entry_.assign(static_cast<size_t>(g_) * g_, -1);
  for (int f = 0; f < g_; ++f)
    for (int t = 0; t < g_; ++t) {
      if (f == t) continue;
      int er, ep;
      global_exit(f, t, 0, er, ep);
      entry_[static_cast<size_t>(f) * g_ + t] = peer(er, ep).id;
    }
  if (num_routers() <= 4096) {
    hops_.resize(static_cast<size_t>(num_routers()) * num_routers());
    for (int f = 0; f < num_routers(); ++f)
      for (int t = 0; t < num_routers(); ++t)
        hops_[static_cast<size_t>(f) * num_routers() + t] = static_cast<uint8_t>(compute_min_hops(f, t));
  }
}

Dragonfly Dragonfly::from_config(const Config& cfg) {
  int a = static_cast<int>(cfg.get_int("topology.a"));
  int h = static_cast<int>(cfg.get_int("topology.h"));
  int g = static_cast<int>(cfg.get_int("topology.groups"));
  if (g == 0) g = a * h + 1;
  auto arr = cfg.get_string("topology.arrangement") == "consecutive" ? Arrangement::Consecutive : Arrangement::Palmtree;
  return Dragonfly(static_cast<int>(cfg.get_int("topology.p")), a, h, g, arr);
}

PortKind Dragonfly::port_kind(int, int port) const {
  if (port < p_) return PortKind::Terminal;
  if (port < p_ + a_ - 1) return PortKind::Local;
  return PortKind::Global;
}

int Dragonfly::target_group(int G, int j) const {
  if (arr_ == Arrangement::Palmtree) return ((G - j - 1) % g_ + g_) % g_;
  return j < G ? j : j + 1;
}

int Dragonfly::group_output_to(int G, int t) const {
  if (arr_ == Arrangement::Palmtree) return ((G - t - 1) % g_ + g_) % g_;
  return t < G ? t : t - 1;
}

PortPeer Dragonfly::peer(int router, int port) const {
  const int G = group_of(router), i = index_in_group(router);
  PortPeer pp;
  if (port < p_) {
    pp.is_node = true;
    pp.id = router * p_ + port;
    return pp;
  }
  if (port < p_ + a_ - 1) {
    int j = port - p_;
    if (j >= i) ++j;
    pp.id = G * a_ + j;
    pp.port = local_port(j, i);
    return pp;
  }
  if (g_ == 1) return pp;  // unconnected global port
  const int out = i * h_ + (port - first_global_port());
  const int logical = out % (g_ - 1), copy = out / (g_ - 1);
  const int t = target_group(G, logical);
  const int back = copy * (g_ - 1) + group_output_to(t, G);
  pp.id = t * a_ + back / h_;
  pp.port = first_global_port() + back % h_;
  return pp;
}

void Dragonfly::global_exit(int from, int to, int copy, int& router, int& port) const {
  const int out = copy * (g_ - 1) + group_output_to(from, to);
  router = from * a_ + out / h_;
  port = first_global_port() + out % h_;
}

int Dragonfly::min_port_to_group(int router, int group, int copy) const {
  if (copy == 0) return port_to_group_[static_cast<size_t>(router) * g_ + group];
  int exit_router, exit_port;
  global_exit(group_of(router), group, copy, exit_router, exit_port);
  if (exit_router == router) return exit_port;
  return local_port(index_in_group(router), index_in_group(exit_router));
}

int Dragonfly::min_port_to_router(int router, int target, int copy) const {
  if (group_of(router) == group_of(target)) return local_port(index_in_group(router), index_in_group(target));
  return min_port_to_group(router, group_of(target), copy);
}

int Dragonfly::hops_to_group(int router, int group, int copy) const {
  int exit_router, exit_port;
  global_exit(group_of(router), group, copy, exit_router, exit_port);
  return (exit_router != router) + 1;
}

int Dragonfly::compute_min_hops(int from, int to) const {
  if (from == to) return 0;
  if (group_of(from) == group_of(to)) return 1;
  int exit_router, exit_port;
  global_exit(group_of(from), group_of(to), 0, exit_router, exit_port);
  PortPeer in = peer(exit_router, exit_port);
  return (exit_router != from) + 1 + (in.id != to);
}

TopologyEntry dragonfly_topology_entry() {
  return TopologyEntry{
      "dragonfly",
      "dragonfly: groups of a routers (complete graph), h global channels per router, p nodes each",
      {int_param("topology.p", 4, "nodes per router", 1, 1024),
       int_param("topology.a", 8, "routers per group", 1, 1024),
       int_param("topology.h", 4, "global channels per router", 0, 1024),
       int_param("topology.groups", 0, "number of groups; 0 means a*h+1 (at most a*h+1; groups-1 must divide a*h)", 0,
                 1 << 20),
       string_param("topology.arrangement", "palmtree", "global channel arrangement", {"palmtree", "consecutive"})},
      [](const Config& c) { return std::make_unique<Dragonfly>(Dragonfly::from_config(c)); }};
}

}  // namespace ccsim
