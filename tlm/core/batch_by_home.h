// A cycle's parallel batch split by home thread (Component::home): thread t steps
// the components listed in homes[t], in the batch's order, and what they hold back
// is handed over in the batch's order with home_of (parallel_routers.h,
// parallel_nics.h).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ccsim {

struct BatchByHome {
  explicit BatchByHome(size_t threads) : homes(threads) {}
  template <typename C>
  void split(const std::vector<C*>& batch) {
    home_of.resize(batch.size());
    for (auto& h : homes) h.clear();
    for (size_t i = 0; i < batch.size(); ++i) {
      home_of[i] = batch[i]->home;
      homes[home_of[i]].push_back(i);
    }
  }
  std::vector<std::vector<size_t>> homes;  // per thread: indices into the batch
  std::vector<uint16_t> home_of;           // per index of the batch: its thread
};

}  // namespace ccsim
