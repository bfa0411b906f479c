#include "routing/qcn_probability_probe.h"

namespace ccsim {

QcnProbabilityProbe::QcnProbabilityProbe(const Dragonfly& df, const std::vector<PortProbabilityTable>& tables,
                                         Cycle window)
    : tables_(tables), window_(window) {
  const int groups = df.groups(), a = df.a(), transit = a - 1 + df.h();
  std::vector<int> kind(static_cast<size_t>(df.num_routers()) * transit, 0);  // 1 global, 2 local to S_out
  for (int g = 0; g < groups && groups > 1; ++g) {
    int er, ep;
    df.global_exit(g, (g + 1) % groups, 0, er, ep);
    kind[static_cast<size_t>(er) * transit + ep - df.p()] = 1;
    for (int i = 0; i < a; ++i) {
      const int r = g * a + i;
      if (r == er) continue;
      const int lp = df.min_port_to_router(r, er, 0);
      kind[static_cast<size_t>(r) * transit + lp - df.p()] = 2;
      if (g == 0 && probe_router_ < 0 && i >= a / 2) {
        probe_router_ = r;
        probe_port_ = lp;
      }
    }
  }
  for (int r = 0; r < df.num_routers(); ++r)
    for (int k = 0; k < transit; ++k) {
      const int v = kind[static_cast<size_t>(r) * transit + k];
      (v == 1 ? adv_global_ : v == 2 ? adv_local_ : other_).push_back({r, k + df.p()});
    }
}

double QcnProbabilityProbe::mean_of(const std::vector<std::pair<int, int>>& ports) const {
  double s = 0;
  for (auto [r, port] : ports) s += tables_[r].probability(port);
  return ports.empty() ? 0.0 : s / static_cast<double>(ports.size());
}

void QcnProbabilityProbe::sample(Cycle now, int64_t cnms) {
  if (window_ <= 0) return;
  for (; now >= next_; next_ += window_) {
    t_.push_back(next_);
    global_.push_back(mean_of(adv_global_));
    local_.push_back(mean_of(adv_local_));
    others_.push_back(mean_of(other_));
    probe_.push_back(probe_router_ >= 0 ? tables_[probe_router_].probability(probe_port_) : 100.0);
    cnms_.push_back(cnms - cnms_at_sample_);
    cnms_at_sample_ = cnms;
  }
}

void QcnProbabilityProbe::add_to(nlohmann::json& j) const {
  j["p_adv1_global"] = mean_of(adv_global_);
  j["p_adv1_local_to_exit"] = mean_of(adv_local_);
  j["p_other"] = mean_of(other_);
  j["probe"] = {{"router", probe_router_}, {"port", probe_port_}};
  if (!t_.empty())
    j["series"] = {{"t", t_},
                   {"p_adv1_global", global_},
                   {"p_adv1_local_to_exit", local_},
                   {"p_other", others_},
                   {"p_probe", probe_},
                   {"cnms", cnms_}};
}

}  // namespace ccsim
