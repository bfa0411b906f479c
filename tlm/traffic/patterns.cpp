#include "traffic/patterns.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/params.h"
#include "topology/dragonfly.h"
#include "registry.h"
#include "traffic/node_set.h"

namespace ccsim {

namespace {

std::vector<int> all_nodes(int n) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), 0);
  return v;
}

// Fisher-Yates prefix: the first `count` entries of `v` become a seeded random choice.
void shuffle_prefix(std::vector<int>& v, size_t count, Rng& rng) {
  for (size_t i = 0; i < count && i + 1 < v.size(); ++i)
    std::swap(v[i], v[i + rng.below(static_cast<uint32_t>(v.size() - i))]);
}

}  // namespace

int pattern_group_size(const Topology& t) {
  if (auto* df = dynamic_cast<const Dragonfly*>(&t)) return df->p() * df->a();
  return t.num_nodes() / std::max(1, t.num_routers());
}

int adversarial_offset(const Config& c, const Topology& t) {
  const int groups = t.num_nodes() / pattern_group_size(t);
  const int off = static_cast<int>(c.get_int("traffic.offset"));
  if (off % groups == 0)
    throw ConfigError("traffic.offset", fmt::format("must not be a multiple of the group count ({})", groups));
  return off;
}

UniformPattern::UniformPattern(int nodes) : members_(all_nodes(nodes)) {}

UniformPattern::UniformPattern(std::vector<int> members) : members_(std::move(members)) {
  if (members_.size() < 2) throw ConfigError("traffic.nodes", "uniform traffic needs at least 2 nodes");
}

int UniformPattern::dest(int src, Rng& rng) {
  const auto self = std::lower_bound(members_.begin(), members_.end(), src);
  const bool member = self != members_.end() && *self == src;
  const uint32_t choices = static_cast<uint32_t>(members_.size()) - (member ? 1 : 0);
  uint32_t i = rng.below(choices);
  if (member && i >= static_cast<uint32_t>(self - members_.begin())) ++i;  // skip src
  return members_[i];
}

int AdversarialPattern::dest(int src, Rng& rng) {
  const int groups = n_ / gs_;
  const int g = ((src / gs_ + off_) % groups + groups) % groups;
  const int index = same_index_ ? src % gs_ : static_cast<int>(rng.below(static_cast<uint32_t>(gs_)));
  int d = g * gs_ + index;
  if (d == src) d = g * gs_ + (index + 1) % gs_;  // only when offset is a multiple of groups
  return d;
}

HotRegionPattern::HotRegionPattern(int nodes, double hot_fraction, double region)
    : n_(nodes), hot_(std::max(1, static_cast<int>(std::lround(region * nodes)))), fraction_(hot_fraction) {
  if (hot_ >= nodes) throw ConfigError("traffic.hot_region", "the hot region must leave nodes outside it");
}

int HotRegionPattern::dest(int src, Rng& rng) {
  // A one-node hot region holding the source itself has no other hot destination: send uniformly.
  const bool only_self_is_hot = hot_ == 1 && src == 0;
  for (;;) {
    const bool to_hot = rng.uniform() < fraction_ && !only_self_is_hot;
    const int d = to_hot ? static_cast<int>(rng.below(static_cast<uint32_t>(hot_)))
                         : static_cast<int>(rng.below(static_cast<uint32_t>(n_)));
    if (d != src) return d;
  }
}

std::vector<int> HotRegionPattern::hot_nodes() const {
  std::vector<int> v(hot_);
  std::iota(v.begin(), v.end(), 0);
  return v;
}

WcHotPattern::WcHotPattern(int nodes, int group_size, int hot_nodes, uint64_t seed)
    : gs_(group_size), groups_(nodes / group_size) {
  if (groups_ < 2) throw ConfigError("traffic.pattern", "wc_hot needs at least 2 groups");
  if (hot_nodes > gs_)
    throw ConfigError("traffic.hot_nodes",
                      fmt::format("must be at most the {} nodes of a group, got {}", gs_, hot_nodes));
  Rng rng(Rng::derive(seed, 103, 0));
  for (int g = 0; g < groups_; ++g) {
    std::vector<int> members(gs_);
    std::iota(members.begin(), members.end(), g * gs_);
    shuffle_prefix(members, static_cast<size_t>(hot_nodes), rng);
    members.resize(hot_nodes);
    std::sort(members.begin(), members.end());
    hot_.push_back(members);
  }
}

int WcHotPattern::dest(int src, Rng& rng) {
  const auto& hot = hot_[(src / gs_ + 1) % groups_];
  return hot[rng.below(static_cast<uint32_t>(hot.size()))];
}

std::vector<int> WcHotPattern::hot_nodes() const {
  std::vector<int> v;
  for (auto& g : hot_) v.insert(v.end(), g.begin(), g.end());
  return v;
}

HotspotPattern::HotspotPattern(int nodes, int sources, int dests, uint64_t seed)
    : HotspotPattern(nodes, all_nodes(nodes), sources, dests, {}, seed) {}

HotspotPattern::HotspotPattern(int nodes, const std::vector<int>& members, int sources, int dests,
                               std::vector<int> given_dests, uint64_t seed)
    : is_src_(nodes, false) {
  Rng rng(Rng::derive(seed, 102, 0));
  std::vector<int> pool = members;
  if (given_dests.empty()) {
    if (dests < 1 || dests >= static_cast<int>(pool.size()))
      throw ConfigError("traffic.hotspot_dests",
                        fmt::format("need 1 <= M < the {} nodes of the class, got {}", pool.size(), dests));
    shuffle_prefix(pool, static_cast<size_t>(dests), rng);
    given_dests.assign(pool.begin(), pool.begin() + dests);
  }
  dests_ = given_dests;
  std::sort(dests_.begin(), dests_.end());
  std::vector<int> candidates;
  for (int m : members)
    if (!std::binary_search(dests_.begin(), dests_.end(), m)) candidates.push_back(m);
  if (sources == 0) sources = static_cast<int>(candidates.size());
  if (sources < 1 || sources > static_cast<int>(candidates.size()))
    throw ConfigError("traffic.hotspot_sources",
                      fmt::format("need 1 <= N <= {} (the class's nodes that are not destinations), got {}",
                                  candidates.size(), sources));
  shuffle_prefix(candidates, static_cast<size_t>(sources), rng);
  for (int i = 0; i < sources; ++i) is_src_[candidates[i]] = true;
}

namespace {
using Nodes = const std::vector<int>&;
}  // namespace

PatternEntry uniform_pattern_entry() {
  return PatternEntry{
      "uniform",
      "uniform random: every message to a random other node of the class's node set",
      {},
      [](const Config&, const Topology&, uint64_t, Nodes nodes) { return std::make_unique<UniformPattern>(nodes); }};
}

PatternEntry adv_pattern_entry() {
  return PatternEntry{
      "adv",
      "ADV+i (and WCn of 003): nodes of group g send to random nodes of group g+offset (a group is a router "
      "off dragonflies)",
      {int_param("traffic.offset", 1, "group offset i of ADV+i / n of WCn", 1, 1 << 20)},
      [](const Config& c, const Topology& t, uint64_t, Nodes) {
        return std::make_unique<AdversarialPattern>(t.num_nodes(), pattern_group_size(t), adversarial_offset(c, t));
      }};
}

PatternEntry worst_case_pattern_entry() {
  return PatternEntry{"worst_case",
                      "000's worst case: nodes of router R_i send to router R_i+1 (same node index, or random with "
                      "permutation = false)",
                      {bool_param("traffic.permutation", true,
                                  "worst_case: node j of R_i sends to node j of R_i+1 (else to any node)")},
                      [](const Config& c, const Topology& t, uint64_t, Nodes) {
                        if (t.num_routers() < 2)
                          throw ConfigError("traffic.pattern", "worst_case needs at least 2 routers");
                        return std::make_unique<AdversarialPattern>(t.num_nodes(), t.num_nodes() / t.num_routers(), 1,
                                                                    c.get_bool("traffic.permutation"));
                      }};
}

PatternEntry wc_hot_pattern_entry() {
  return PatternEntry{"wc_hot",
                      "003's WC-Hot n: all nodes of group g send to the same n random nodes of group g+1",
                      {int_param("traffic.hot_nodes", 1, "wc_hot: hot nodes n per group", 1, 1 << 20)},
                      [](const Config& c, const Topology& t, uint64_t seed, Nodes) {
                        return std::make_unique<WcHotPattern>(t.num_nodes(), pattern_group_size(t),
                                                              static_cast<int>(c.get_int("traffic.hot_nodes")), seed);
                      }};
}

PatternEntry hot_region_pattern_entry() {
  return PatternEntry{
      "hot_region",
      "001's hot region: hot_fraction of the traffic to the first hot_region share of the nodes, the "
      "rest uniform over all nodes",
      {float_param("traffic.hot_fraction", 0.25, "hot_region: share of messages sent to the hot region", 0.0, 1.0),
       float_param("traffic.hot_region", 0.125, "hot_region: share of the nodes (lowest ids) in the hot region", 0.0,
                   1.0)},
      [](const Config& c, const Topology& t, uint64_t, Nodes) {
        return std::make_unique<HotRegionPattern>(t.num_nodes(), c.get_float("traffic.hot_fraction"),
                                                  c.get_float("traffic.hot_region"));
      }};
}

PatternEntry hotspot_pattern_entry() {
  return PatternEntry{
      "hotspot",
      "N sources send to M destinations, both drawn at random (disjoint, seeded) from the class's nodes; "
      "other nodes are silent",
      {int_param("traffic.hotspot_sources", 60, "hotspot: sending nodes N; 0 = every class node not a destination", 0,
                 1 << 24),
       int_param("traffic.hotspot_dests", 4, "hotspot: destination nodes M", 1, 1 << 24),
       string_param("traffic.hotspot_dest_list", "",
                    "hotspot: explicit destinations \"A,B,...\" instead of M "
                    "random ones")},
      [](const Config& c, const Topology& t, uint64_t seed, Nodes nodes) {
        std::vector<int> given;
        if (!c.get_string("traffic.hotspot_dest_list").empty())
          given =
              select_nodes("traffic.hotspot_dest_list", "list:" + c.get_string("traffic.hotspot_dest_list"), t, seed);
        return std::make_unique<HotspotPattern>(t.num_nodes(), nodes,
                                                static_cast<int>(c.get_int("traffic.hotspot_sources")),
                                                static_cast<int>(c.get_int("traffic.hotspot_dests")), given, seed);
      }};
}

}  // namespace ccsim
