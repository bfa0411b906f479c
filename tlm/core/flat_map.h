// Open-addressing int -> int map with linear probing and backward-shift
// deletion: no allocation once grown, cache friendly. Used for per-NIC
// destination queues, where std::unordered_map's node churn dominated profiles.
#pragma once
#include <cstdint>
#include <vector>

namespace ccsim {

class FlatIntMap {
 public:
  static constexpr int kEmpty = -1;
  int find(int key) const {
    if (keys_.empty()) return kEmpty;
    for (size_t i = slot(key);; i = (i + 1) & mask()) {
      if (keys_[i] == key) return vals_[i];
      if (keys_[i] == kEmpty) return kEmpty;
    }
  }
  void insert(int key, int val) {  // key must be absent
    if ((size_ + 1) * 4 > keys_.size() * 3) grow();
    size_t i = slot(key);
    while (keys_[i] != kEmpty) i = (i + 1) & mask();
    keys_[i] = key;
    vals_[i] = val;
    ++size_;
  }
  void erase(int key) {
    size_t i = slot(key);
    while (keys_[i] != key) i = (i + 1) & mask();
    // Backward shift: pull later entries of the probe run into the hole.
    for (size_t j = (i + 1) & mask(); keys_[j] != kEmpty; j = (j + 1) & mask()) {
      const size_t home = slot(keys_[j]);
      if (((j - home) & mask()) >= ((j - i) & mask())) {
        keys_[i] = keys_[j];
        vals_[i] = vals_[j];
        i = j;
      }
    }
    keys_[i] = kEmpty;
    --size_;
  }
  size_t size() const { return size_; }

 private:
  size_t mask() const { return keys_.size() - 1; }
  size_t slot(int key) const { return (static_cast<uint32_t>(key) * 2654435769u) & mask(); }
  void grow() {
    std::vector<int> k = std::move(keys_), v = std::move(vals_);
    keys_.assign(k.empty() ? 16 : k.size() * 2, kEmpty);
    vals_.assign(keys_.size(), 0);
    size_ = 0;
    for (size_t i = 0; i < k.size(); ++i)
      if (k[i] != kEmpty) insert(k[i], v[i]);
  }
  std::vector<int> keys_, vals_;
  size_t size_ = 0;
};

}  // namespace ccsim
