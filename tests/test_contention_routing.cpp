// Adaptive routing of paper 002 (PB, OLM, Base, Hybrid, ECtN) on a small
// dragonfly: the papers' steady-state and transient claims.
#include <gtest/gtest.h>

#include "core/network.h"
#include "registry.h"
#include "test_util.h"

using namespace ccsim;

namespace {

// Thresholds for the p=2 test dragonfly: 002 derives th <= p for misrouting
// at injection (th = 6 for p = 8); here th = 3 (Base, ECtN), 4 (Hybrid).
std::vector<std::string> setup(const std::string& alg, std::vector<std::string> v) {
  v.insert(v.begin(), {"routing.algorithm=" + alg, "router.vcs=6", "traffic.packet_size=8"});
  if (alg == "base" || alg == "ectn") v.push_back("routing.contention_threshold=3");
  if (alg == "hybrid") v.push_back("routing.hybrid_contention_threshold=4");
  if (alg == "ectn") v.push_back("routing.ectn_combined_threshold=5");
  return v;
}

// Cycles from the UN -> ADV+1 switch until the misrouting decisions reach half
// way from their UN level to their ADV+1 level (10-cycle windows).
struct Transient {
  double before, after;
  Cycle response;
};

Transient transient(const std::string& alg, const std::vector<std::string>& extra = {}) {
  constexpr Cycle kSwitch = 3000, kWindow = 10;
  std::vector<std::string> sets = setup(alg, {"traffic.load=0.2", "sim.warmup=3000", "sim.measure=1500"});
  sets.insert(sets.end(), extra.begin(), extra.end());
  std::string base = std::string(test::kSmallDragonfly) + "[[traffic.phase]]\nat = 3000\npattern = \"adv\"\n";
  Config cfg = test::config(sets, base.c_str());
  auto topo = find_topology("dragonfly").make(cfg);
  auto counter = std::make_unique<test::DecisionCounter>(find_routing("dragonfly", alg).make(cfg, *topo), kWindow,
                                                         (kSwitch + 1500) / kWindow);
  test::DecisionCounter& c = *counter;
  Network net(("transient_" + alg).c_str(), cfg, std::move(counter));
  net.run();
  auto mean = [&](Cycle from, Cycle to) {
    double s = 0;
    for (Cycle t = from; t < to; t += kWindow) s += c.misrouted_fraction(static_cast<size_t>(t / kWindow));
    return s / static_cast<double>((to - from) / kWindow);
  };
  Transient r{mean(kSwitch - 1000, kSwitch), mean(kSwitch + 1000, kSwitch + 1500), -1};
  for (Cycle t = kSwitch; t < kSwitch + 1500 && r.response < 0; t += kWindow)
    if (c.misrouted_fraction(static_cast<size_t>(t / kWindow)) >= (r.before + r.after) / 2) r.response = t - kSwitch;
  return r;
}

}  // namespace

TEST(ContentionRouting, TransientProbe) {
  for (const char* alg : {"base", "olm", "hybrid", "ectn", "pb"}) {
    for (auto bufs : {std::vector<std::string>{}, {"router.local_buffer_depth=256", "router.global_buffer_depth=2048"}}) {
      Transient t = transient(alg, bufs);
      std::printf("%s bufs=%zu: before %.2f after %.2f response %lld\n", alg, bufs.size(), t.before, t.after,
                  static_cast<long long>(t.response));
    }
  }
}
