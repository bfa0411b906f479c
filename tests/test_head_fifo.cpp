// Fifo and HeadFifo (the router's queues) behave as a deque under any mix of
// pushes at both ends, pops and clears, across their buffers' growth.
#include <gtest/gtest.h>

#include <deque>
#include <random>

#include "core/fifo.h"
#include "core/head_fifo.h"
#include "core/inline_first_array.h"

using namespace ccsim;

namespace {

template <typename Queue>
void matches_a_deque(uint32_t seed) {
  std::mt19937 rng(seed);
  Queue q;
  std::deque<int> ref;
  for (int step = 0; step < 20000; ++step) {
    const int op = static_cast<int>(rng() % 10);
    if (op < 4) {
      q.push_back(step);
      ref.push_back(step);
    } else if (op < 5) {
      q.push_front(step);
      ref.push_front(step);
    } else if (op < 9) {
      if (!ref.empty()) {
        q.pop_front();
        ref.pop_front();
      }
    } else if (rng() % 50 == 0) {
      q.clear();
      ref.clear();
    }
    ASSERT_EQ(q.size(), ref.size());
    ASSERT_EQ(q.empty(), ref.empty());
    if (ref.empty()) continue;
    ASSERT_EQ(q.front(), ref.front());
    ASSERT_EQ(q.back(), ref.back());
    const size_t i = rng() % ref.size();
    ASSERT_EQ(q[i], ref[i]);
  }
}

TEST(Queues, FifoMatchesADeque) { matches_a_deque<Fifo<int>>(1); }
TEST(Queues, HeadFifoMatchesADeque) { matches_a_deque<HeadFifo<int>>(2); }

TEST(Queues, ACopiedFifoIsIndependent) {
  Fifo<int> a;
  for (int i = 0; i < 9; ++i) a.push_back(i);
  a.pop_front();
  Fifo<int> b = a;
  b.pop_front();
  b.push_back(99);
  EXPECT_EQ(a.front(), 1);
  EXPECT_EQ(a.size(), 8u);
  EXPECT_EQ(b.front(), 2);
  EXPECT_EQ(b.back(), 99);
}

}  // namespace

// An input VC's queues: the first lives in the object (no pointer to follow),
// the others on the heap; indexing and iteration see them in order.
TEST(Queues, InlineFirstArrayKeepsTheFirstInlineAndTheRestInOrder) {
  InlineFirstArray<HeadFifo<int>> a;
  a.resize(4);
  ASSERT_EQ(a.size(), 4u);
  for (size_t i = 0; i < a.size(); ++i) a[i].push_back(static_cast<int>(10 * i));
  const auto* first = reinterpret_cast<const char*>(&a[0]);
  const auto* self = reinterpret_cast<const char*>(&a);
  EXPECT_TRUE(first >= self && first < self + sizeof(a));
  int expect = 0;
  for (auto& q : a) {
    EXPECT_EQ(q.front(), expect);
    expect += 10;
  }
  EXPECT_EQ(expect, 40);
  a.resize(1);  // a resize starts afresh
  EXPECT_EQ(a.size(), 1u);
  EXPECT_TRUE(a[0].empty());
}
