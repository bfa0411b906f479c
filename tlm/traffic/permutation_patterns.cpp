#include "traffic/permutation_patterns.h"

#include <fmt/format.h>

#include <numeric>

#include "core/params.h"
#include "registry.h"

namespace ccsim {

PermutationPattern::PermutationPattern(int nodes, uint64_t seed) : perm_(nodes) {
  Rng rng(Rng::derive(seed, 101, 0));
  std::iota(perm_.begin(), perm_.end(), 0);
  for (int i = nodes - 1; i > 0; --i) std::swap(perm_[i], perm_[rng.below(static_cast<uint32_t>(i))]);
}

std::vector<int> bit_permutation(const std::string& name, int nodes) {
  int bits = 0;
  while ((1 << bits) < nodes) ++bits;
  if ((1 << bits) != nodes || bits < 2)
    throw ConfigError("traffic.pattern",
                      fmt::format("{} needs a power-of-two node count (at least 4), the network has {}", name, nodes));
  if (name == "transpose" && bits % 2)
    throw ConfigError("traffic.pattern",
                      fmt::format("transpose needs an even number of node-id bits, {} has {}", nodes, bits));
  auto bit = [](int v, int i) { return (v >> i) & 1; };
  std::vector<int> perm(nodes);
  for (int s = 0; s < nodes; ++s) {
    int d = 0;
    if (name == "bitrev") {
      for (int i = 0; i < bits; ++i) d |= bit(s, i) << (bits - 1 - i);
    } else if (name == "shuffle") {
      d = ((s << 1) | bit(s, bits - 1)) & (nodes - 1);
    } else if (name == "butterfly") {
      d = s & ~(1 | (1 << (bits - 1)));
      d |= bit(s, 0) << (bits - 1) | bit(s, bits - 1);
    } else {  // transpose
      const int half = bits / 2;
      d = (s >> half) | ((s & ((1 << half) - 1)) << half);
    }
    perm[s] = d;
  }
  return perm;
}

std::vector<int> tornado_permutation(const Topology& topo) {
  const std::vector<int> shape = topo.grid_shape();
  if (shape.empty()) throw ConfigError("traffic.pattern", "tornado needs a grid topology (torus, mesh or flatfly)");
  const int per_router = topo.num_nodes() / topo.num_routers();
  std::vector<int> perm(topo.num_nodes());
  for (int s = 0; s < topo.num_nodes(); ++s) {
    int rest = s / per_router, router = 0, scale = 1;
    for (int k : shape) {
      const int x = rest % k;
      rest /= k;
      router += ((x + (k + 1) / 2 - 1) % k) * scale;
      scale *= k;
    }
    perm[s] = router * per_router + s % per_router;
  }
  return perm;
}

namespace {
using Nodes = const std::vector<int>&;

// A pattern that is a fixed bit permutation of the node id.
PatternEntry bit_permutation_entry(std::string name, std::string doc) {
  return PatternEntry{name, doc, {}, [name](const Config&, const Topology& t, uint64_t, Nodes) {
                        return std::make_unique<PermutationPattern>(bit_permutation(name, t.num_nodes()));
                      }};
}
}  // namespace

PatternEntry permutation_pattern_entry() {
  return PatternEntry{"permutation",
                      "random permutation without fixed points (seeded by sim.seed)",
                      {},
                      [](const Config&, const Topology& t, uint64_t seed, Nodes) {
                        return std::make_unique<PermutationPattern>(t.num_nodes(), seed);
                      }};
}

PatternEntry tornado_pattern_entry() {
  return PatternEntry{"tornado",
                      "tornado: every grid coordinate advanced by ceil(k/2)-1 (torus, mesh, flatfly)",
                      {},
                      [](const Config&, const Topology& t, uint64_t, Nodes) {
                        return std::make_unique<PermutationPattern>(tornado_permutation(t));
                      }};
}

PatternEntry bitrev_pattern_entry() {
  return bit_permutation_entry("bitrev", "bit reversal of the node id (004); nodes mapped to themselves are silent");
}

PatternEntry shuffle_pattern_entry() {
  return bit_permutation_entry("shuffle", "perfect shuffle: node id bits rotated left (004)");
}

PatternEntry butterfly_pattern_entry() {
  return bit_permutation_entry("butterfly", "butterfly: most and least significant node id bits swapped (004)");
}

PatternEntry transpose_pattern_entry() {
  return bit_permutation_entry("transpose", "transpose: high and low halves of the node id bits swapped");
}

}  // namespace ccsim
