// A Fifo whose front element lives in the queue object itself: reading the
// front of a queue costs the cache line the queue's header is on, not a second
// one in its buffer (the router's input and output queues are read at their
// front almost only). Same interface as Fifo; a reference to the front stays
// at the same address after pop_front() and then names the new front.
#pragma once
#include <cassert>
#include <cstddef>
#include <cstdint>

#include "core/fifo.h"

namespace ccsim {

template <typename T>
class HeadFifo {
 public:
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }

  T& front() {
    assert(size_);
    return head_;
  }
  const T& front() const {
    assert(size_);
    return head_;
  }
  T& back() {
    assert(size_);
    return size_ == 1 ? head_ : rest_.back();
  }
  T& operator[](size_t i) { return i == 0 ? head_ : rest_[i - 1]; }
  const T& operator[](size_t i) const { return i == 0 ? head_ : rest_[i - 1]; }

  void push_back(const T& v) {
    if (size_ == 0)
      head_ = v;
    else
      rest_.push_back(v);
    ++size_;
  }
  void push_front(const T& v) {
    if (size_ > 0) rest_.push_front(head_);
    head_ = v;
    ++size_;
  }
  void pop_front() {
    assert(size_);
    if (--size_ > 0) {
      head_ = rest_.front();
      rest_.pop_front();
    }
  }
  void clear() {
    rest_.clear();
    size_ = 0;
  }

 private:
  T head_{};
  uint32_t size_ = 0;
  Fifo<T> rest_;
};

}  // namespace ccsim
