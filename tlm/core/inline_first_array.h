// A fixed-size array whose first element lives in the object itself and the
// others on the heap. An input VC holds one packet queue, or one per output
// port with VOQ: keeping the first inline puts the common single queue beside
// the VC's state, so reaching its front packet follows no pointer (the two
// cache lines load in parallel instead of one after the other).
#pragma once
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace ccsim {

template <typename T>
class InlineFirstArray {
 public:
  // n >= 1 default-constructed elements (the earlier ones are discarded).
  void resize(size_t n) {
    assert(n >= 1);
    first_ = T{};
    rest_.reset(n > 1 ? new T[n - 1] : nullptr);
    size_ = static_cast<uint32_t>(n);
  }
  size_t size() const { return size_; }
  T& operator[](size_t i) {
    assert(i < size_);
    return i == 0 ? first_ : rest_[i - 1];
  }
  const T& operator[](size_t i) const {
    assert(i < size_);
    return i == 0 ? first_ : rest_[i - 1];
  }

  template <typename Array, typename Elem>
  class Iter {
   public:
    Iter(Array* a, size_t i) : a_(a), i_(i) {}
    Elem& operator*() const { return (*a_)[i_]; }
    Iter& operator++() {
      ++i_;
      return *this;
    }
    bool operator!=(const Iter& o) const { return i_ != o.i_; }

   private:
    Array* a_;
    size_t i_;
  };
  Iter<InlineFirstArray, T> begin() { return {this, 0}; }
  Iter<InlineFirstArray, T> end() { return {this, size_}; }
  Iter<const InlineFirstArray, const T> begin() const { return {this, 0}; }
  Iter<const InlineFirstArray, const T> end() const { return {this, size_}; }

 private:
  T first_{};
  std::unique_ptr<T[]> rest_;
  uint32_t size_ = 0;
};

}  // namespace ccsim
