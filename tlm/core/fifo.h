// Growable ring buffer: no allocation until first use, amortised O(1) push/pop,
// stable indices from the front. std::deque allocates ~0.5 KB even when empty,
// which adds up over millions of per-VC queues; the header is 24 bytes, so a
// router queue's header and its front (HeadFifo) share a cache line.
#pragma once
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace ccsim {

template <typename T>
class Fifo {
 public:
  Fifo() = default;
  Fifo(const Fifo& o) { *this = o; }
  Fifo& operator=(const Fifo& o) {
    if (this == &o) return *this;
    buf_.reset(o.cap_ ? new T[o.cap_] : nullptr);
    cap_ = o.cap_;
    head_ = 0;
    size_ = o.size_;
    for (uint32_t i = 0; i < size_; ++i) buf_[i] = o[i];
    return *this;
  }
  Fifo(Fifo&&) noexcept = default;
  Fifo& operator=(Fifo&&) noexcept = default;

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
    if (size_ == cap_) grow();
    buf_[(head_ + size_) & mask()] = v;
    ++size_;
  }
  void push_front(const T& v) {
    if (size_ == cap_) grow();
    head_ = (head_ + cap_ - 1) & mask();
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
  uint32_t mask() const { return cap_ - 1; }
  void grow() {
    const uint32_t cap = cap_ ? cap_ * 2 : 4;
    std::unique_ptr<T[]> next(new T[cap]);
    for (uint32_t i = 0; i < size_; ++i) next[i] = buf_[(head_ + i) & mask()];
    buf_ = std::move(next);
    cap_ = cap;
    head_ = 0;
  }
  std::unique_ptr<T[]> buf_;
  uint32_t cap_ = 0, head_ = 0, size_ = 0;
};

}  // namespace ccsim
