// traffic.pattern = "adv_mix": 002 Fig. 6's mixes of adversarial and uniform traffic. Each message
// goes, with probability traffic.adv_fraction, to a random node of the group `offset` away (ADV+i),
// else to a random other node (UN): the choice is per message, as the spec reads 002.
#include <memory>

#include "core/params.h"
#include "registry.h"
#include "traffic/patterns.h"

namespace ccsim {
namespace {

class AdvUniformMix : public TrafficPattern {
 public:
  AdvUniformMix(int nodes, int group_size, int offset, double adv_fraction)
      : uniform_(nodes), adv_(nodes, group_size, offset), adv_fraction_(adv_fraction) {}
  int dest(int src, Rng& rng) override {
    return rng.bernoulli(adv_fraction_) ? adv_.dest(src, rng) : uniform_.dest(src, rng);
  }

 private:
  UniformPattern uniform_;
  AdversarialPattern adv_;
  double adv_fraction_;
};

}  // namespace

PatternEntry adv_mix_pattern_entry() {
  return PatternEntry{
      "adv_mix",
      "002 Fig. 6's mix: each message to ADV+offset with probability adv_fraction, else uniform random over "
      "all nodes",
      {int_param("traffic.offset", 1, "group offset i of ADV+i", 1, 1 << 20),
       float_param("traffic.adv_fraction", 0.5, "adv_mix: share of messages sent ADV+offset", 0.0, 1.0)},
      [](const Config& c, const Topology& t, uint64_t, const std::vector<int>&) {
        return std::make_unique<AdvUniformMix>(t.num_nodes(), pattern_group_size(t), adversarial_offset(c, t),
                                               c.get_float("traffic.adv_fraction"));
      }};
}

}  // namespace ccsim
