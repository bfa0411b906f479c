// Random-destination traffic patterns: uniform, ADV+i / WCn / worst case
// (groups to groups), hot region (001), WC-Hot n (003) and hotspot N:M.
// Fixed permutations live in permutation_patterns.h.
#pragma once
#include <vector>

#include "topology/topology.h"
#include "traffic/traffic_pattern.h"

namespace ccsim {

class Config;

// Uniform among `members` (the class's nodes; all nodes by default).
class UniformPattern : public TrafficPattern {
 public:
  explicit UniformPattern(int nodes);
  explicit UniformPattern(std::vector<int> members);
  int dest(int src, Rng& rng) override;

 private:
  std::vector<int> members_;  // sorted
};

// Nodes of group g send to group g + offset: ADV+i and WCn of the dragonfly
// (a group is a dragonfly group), the worst case of the flattened butterfly
// (a group is a router). Random node of the target group, or with
// `same_index` the node at the source's own index (a permutation).
class AdversarialPattern : public TrafficPattern {
 public:
  AdversarialPattern(int nodes, int group_size, int offset, bool same_index = false)
      : n_(nodes), gs_(group_size), off_(offset), same_index_(same_index) {}
  int dest(int src, Rng& rng) override;

 private:
  int n_, gs_, off_;
  bool same_index_;
};

// 001 hot region: a fraction of the messages goes to the first `region` share
// of the nodes, the rest is uniform over all nodes.
class HotRegionPattern : public TrafficPattern {
 public:
  HotRegionPattern(int nodes, double hot_fraction, double region);
  int dest(int src, Rng& rng) override;
  int region_nodes() const { return hot_; }
  std::vector<int> hot_nodes() const override;

 private:
  int n_, hot_;
  double fraction_;
};

// 003 WC-Hot n: every node of group g sends to the same n nodes of group g+1
// (chosen at random in each group, seeded).
class WcHotPattern : public TrafficPattern {
 public:
  WcHotPattern(int nodes, int group_size, int hot_nodes, uint64_t seed);
  int dest(int src, Rng& rng) override;
  const std::vector<int>& hot_nodes_of_group(int g) const { return hot_[g]; }
  std::vector<int> hot_nodes() const override;

 private:
  int gs_, groups_;
  std::vector<std::vector<int>> hot_;  // per group
};

// N sources send to M destinations, uniformly among them. Both are drawn from
// `members` (disjoint, seeded) unless the destinations are given; other nodes
// are silent. sources = 0 means every member that is not a destination.
class HotspotPattern : public TrafficPattern {
 public:
  HotspotPattern(int nodes, int sources, int dests, uint64_t seed);
  HotspotPattern(int nodes, const std::vector<int>& members, int sources, int dests, std::vector<int> given_dests,
                 uint64_t seed);
  bool is_source(int src) const override { return is_src_[src]; }
  int dest(int src, Rng& rng) override { return dests_[rng.below(static_cast<uint32_t>(dests_.size()))]; }
  const std::vector<int>& destinations() const { return dests_; }
  std::vector<int> hot_nodes() const override { return dests_; }

 private:
  std::vector<bool> is_src_;
  std::vector<int> dests_;
};

// Nodes in a group for group patterns: a dragonfly group, else one router.
int pattern_group_size(const Topology& t);
// traffic.offset of an ADV+i pattern, checked: not a multiple of the group count.
int adversarial_offset(const Config& c, const Topology& t);

}  // namespace ccsim
