#include "traffic/patterns.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "core/params.h"

namespace ccsim {

int UniformPattern::dest(int src, Rng& rng) {
  int d = static_cast<int>(rng.below(static_cast<uint32_t>(n_ - 1)));
  return d >= src ? d + 1 : d;
}

int AdversarialPattern::dest(int src, Rng& rng) {
  const int groups = n_ / gs_;
  const int g = ((src / gs_ + off_) % groups + groups) % groups;
  int d = g * gs_ + static_cast<int>(rng.below(static_cast<uint32_t>(gs_)));
  if (d == src) d = g * gs_ + (d - g * gs_ + 1) % gs_;  // only when offset is a multiple of groups
  return d;
}

PermutationPattern::PermutationPattern(int nodes, uint64_t seed) : perm_(nodes) {
  Rng rng(Rng::derive(seed, 101, 0));
  std::iota(perm_.begin(), perm_.end(), 0);
  for (int i = nodes - 1; i > 0; --i) std::swap(perm_[i], perm_[rng.below(static_cast<uint32_t>(i))]);
}

HotspotPattern::HotspotPattern(int nodes, int sources, int dests, uint64_t seed) : is_src_(nodes, false) {
  if (sources < 1 || dests < 1 || sources + dests > nodes)
    throw ConfigError("traffic.hotspot_sources",
                      fmt::format("need sources >= 1, dests >= 1 and sources + dests <= nodes ({}); got {} + {}",
                                  nodes, sources, dests));
  Rng rng(Rng::derive(seed, 102, 0));
  std::vector<int> order(nodes);
  std::iota(order.begin(), order.end(), 0);
  for (int i = nodes - 1; i > 0; --i) std::swap(order[i], order[rng.below(static_cast<uint32_t>(i + 1))]);
  for (int i = 0; i < sources; ++i) is_src_[order[i]] = true;
  dests_.assign(order.begin() + sources, order.begin() + sources + dests);
  std::sort(dests_.begin(), dests_.end());
}

}  // namespace ccsim
