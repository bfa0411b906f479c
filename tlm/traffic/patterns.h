// The patterns of the foundation: uniform random, ADV+i (dragonfly adversarial),
// random permutation and hotspot (N sources to M destinations).
#pragma once
#include <vector>

#include "topology/topology.h"
#include "traffic/traffic_pattern.h"

namespace ccsim {

class UniformPattern : public TrafficPattern {
 public:
  explicit UniformPattern(int nodes) : n_(nodes) {}
  int dest(int src, Rng& rng) override;

 private:
  int n_;
};

// Every node of group g sends to random nodes of group g + offset (003/002 ADV+i).
// On topologies without groups, a "group" is the nodes of one router.
class AdversarialPattern : public TrafficPattern {
 public:
  AdversarialPattern(int nodes, int group_size, int offset) : n_(nodes), gs_(group_size), off_(offset) {}
  int dest(int src, Rng& rng) override;

 private:
  int n_, gs_, off_;
};

// A random permutation without fixed points (Sattolo's algorithm), seeded.
class PermutationPattern : public TrafficPattern {
 public:
  PermutationPattern(int nodes, uint64_t seed);
  int dest(int src, Rng&) override { return perm_[src]; }
  const std::vector<int>& permutation() const { return perm_; }

 private:
  std::vector<int> perm_;
};

// N randomly chosen sources send to M randomly chosen destinations, uniformly
// among them; sources and destinations are disjoint; other nodes are silent.
class HotspotPattern : public TrafficPattern {
 public:
  HotspotPattern(int nodes, int sources, int dests, uint64_t seed);
  bool is_source(int src) const override { return is_src_[src]; }
  int dest(int src, Rng& rng) override { return dests_[rng.below(static_cast<uint32_t>(dests_.size()))]; }
  const std::vector<int>& destinations() const { return dests_; }

 private:
  std::vector<bool> is_src_;
  std::vector<int> dests_;
};

}  // namespace ccsim
