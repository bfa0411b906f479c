// Node selections of traffic classes, written as one string:
//   "all"                 every node
//   "rest"                nodes no other class selects (resolved by the caller)
//   "random:N"            N distinct nodes drawn with the run's seed
//   "range:A-B"           node ids A..B
//   "router_index:A[-B]"  nodes whose index on their router is in A..B
//                         ("router_index:0" is the first node of each router)
//   "list:A,B,C"          explicit ids (a TOML array of integers also works)
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "topology/topology.h"

namespace ccsim {

// Sorted node ids of `spec`; throws ConfigError(key, ...) on a malformed or
// impossible selection. "rest" is not handled here.
std::vector<int> select_nodes(const std::string& key, const std::string& spec, const Topology& topo, uint64_t seed);

// Sorted router ids of `spec` ("range:A-B" or "list:A,B,..." over the
// routers of `topo`); throws ConfigError(key, ...) otherwise.
std::vector<int> select_routers(const std::string& key, const std::string& spec, const Topology& topo);

// The node sets of several classes (`keys[i]` names class i's key in errors):
// "rest" takes the nodes no other class selects; random selections draw from
// `seed` and the class index.
std::vector<std::vector<int>> select_class_nodes(const std::vector<std::string>& keys,
                                                 const std::vector<std::string>& specs, const Topology& topo,
                                                 uint64_t seed);

}  // namespace ccsim
