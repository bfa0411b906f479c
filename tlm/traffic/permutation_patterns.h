// Fixed permutations: every source always sends to the same destination.
// Nodes the permutation maps to themselves stay silent.
//   permutation  random, without fixed points (seeded)
//   bitrev, shuffle, butterfly, transpose   bit permutations of the node id (004)
//   tornado      each grid coordinate advanced by ceil(k/2)-1 (torus, mesh, flatfly)
#pragma once
#include <string>
#include <vector>

#include "topology/topology.h"
#include "traffic/traffic_pattern.h"

namespace ccsim {

class PermutationPattern : public TrafficPattern {
 public:
  explicit PermutationPattern(std::vector<int> perm) : perm_(std::move(perm)) {}
  // A random permutation without fixed points (Sattolo's algorithm).
  PermutationPattern(int nodes, uint64_t seed);
  bool is_source(int src) const override { return perm_[src] != src; }
  int dest(int src, Rng&) override { return perm_[src]; }
  const std::vector<int>& permutation() const { return perm_; }

 private:
  std::vector<int> perm_;
};

// Node id bits a_{b-1} ... a_0 (the node count must be 2^b):
//   bitrev     a_0 a_1 ... a_{b-1}
//   shuffle    a_{b-2} ... a_0 a_{b-1}   (rotate left)
//   butterfly  a_0 a_{b-2} ... a_1 a_{b-1} (swap the outer bits)
//   transpose  low half of the bits <-> high half (b even)
std::vector<int> bit_permutation(const std::string& name, int nodes);

// Tornado on a grid of routers: router coordinate x_d -> (x_d + ceil(k_d/2) - 1)
// mod k_d in every dimension, same node index on the router.
std::vector<int> tornado_permutation(const Topology& topo);

}  // namespace ccsim
