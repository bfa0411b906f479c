// Traffic patterns: who sends, and to whom each message goes.
#pragma once
#include <vector>

#include "core/rng.h"

namespace ccsim {

class TrafficPattern {
 public:
  virtual ~TrafficPattern() = default;
  // Does node `src` generate traffic at all? (hotspot sources, node sets)
  virtual bool is_source(int src) const { return true; }
  // Destination of the next message from `src`; never `src` itself.
  virtual int dest(int src, Rng& rng) = 0;
  // The nodes it concentrates traffic on (hotspot destinations), for plots; none by default.
  virtual std::vector<int> hot_nodes() const { return {}; }
};

}  // namespace ccsim
