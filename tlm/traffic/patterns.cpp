#include "traffic/patterns.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/params.h"
#include "topology/dragonfly.h"

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
  for (;;) {
    const int d = rng.uniform() < fraction_ ? static_cast<int>(rng.below(static_cast<uint32_t>(hot_)))
                                            : static_cast<int>(rng.below(static_cast<uint32_t>(n_)));
    if (d != src) return d;
  }
}

WcHotPattern::WcHotPattern(int nodes, int group_size, int hot_nodes, uint64_t seed)
    : gs_(group_size), groups_(nodes / group_size) {
  if (groups_ < 2) throw ConfigError("traffic.pattern", "wc_hot needs at least 2 groups");
  if (hot_nodes > gs_)
    throw ConfigError("traffic.hot_nodes", fmt::format("must be at most the {} nodes of a group, got {}", gs_, hot_nodes));
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

}  // namespace ccsim
