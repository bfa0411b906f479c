// Growable ring buffer: no allocation until first use, amortised O(1) push/pop,
// stable indices from the front. std::deque allocates ~0.5 KB even when empty,
// which adds up over millions of per-VC queues.
#pragma once
#include <cassert>
#include <cstddef>
#include <vector>

namespace ccsim {

template <typename T>
class Fifo {
 public:
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }

  T& front() {
    assert(size_);
    return buf_[head_];
  }
  const T& front() const {
    assert(size_);
    return buf_[head_];
  }
  T& back() {
    assert(size_);
    return buf_[(head_ + size_ - 1) & mask()];
  }
  T& operator[](size_t i) { return buf_[(head_ + i) & mask()]; }
  const T& operator[](size_t i) const { return buf_[(head_ + i) & mask()]; }

  void push_back(const T& v) {
    if (size_ == buf_.size()) grow();
    buf_[(head_ + size_) & mask()] = v;
    ++size_;
  }
  void push_front(const T& v) {
    if (size_ == buf_.size()) grow();
    head_ = (head_ + buf_.size() - 1) & mask();
    buf_[head_] = v;
    ++size_;
  }
  void pop_front() {
    assert(size_);
    head_ = (head_ + 1) & mask();
    --size_;
  }
  void clear() { head_ = size_ = 0; }

 private:
  size_t mask() const { return buf_.size() - 1; }
  void grow() {
    std::vector<T> next(buf_.empty() ? 4 : buf_.size() * 2);
    for (size_t i = 0; i < size_; ++i) next[i] = buf_[(head_ + i) & mask()];
    buf_.swap(next);
    head_ = 0;
  }
  std::vector<T> buf_;
  size_t head_ = 0, size_ = 0;
};

}  // namespace ccsim
