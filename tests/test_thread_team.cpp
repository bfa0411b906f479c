// ThreadTeam::run_ordered: every chunk's `then` runs once, after its own f, in the
// chunks' order (what keeps shared effects in the serial order with threads).
#include <gtest/gtest.h>

#include <atomic>
#include <vector>

#include "core/thread_team.h"

namespace ccsim {
namespace {

TEST(ThreadTeam, OrderedThensRunInChunkOrderAfterTheirChunk) {
  for (int threads = 1; threads <= 4; ++threads) {
    ThreadTeam team(threads);
    for (size_t n = 0; n <= 17; ++n) {
      for (int round = 0; round < 50; ++round) {
        std::vector<std::atomic<int>> done(n);
        for (auto& d : done) d = 0;
        std::vector<size_t> order;  // written only in `then`, which run_ordered serializes
        bool then_before_its_f = false;
        team.run_ordered(
            n,
            [&](size_t begin, size_t end) {
              for (size_t i = begin; i < end; ++i) done[i].fetch_add(1);
            },
            [&](size_t begin, size_t end) {
              for (size_t i = begin; i < end; ++i) {
                if (done[i].load() != 1) then_before_its_f = true;
                order.push_back(i);
              }
            });
        std::vector<size_t> expected(n);
        for (size_t i = 0; i < n; ++i) expected[i] = i;
        ASSERT_EQ(order, expected) << threads << " threads, n = " << n;
        ASSERT_FALSE(then_before_its_f) << threads << " threads, n = " << n;
        for (size_t i = 0; i < n; ++i) ASSERT_EQ(done[i].load(), 1);
      }
      // A plain run after ordered ones calls no `then`.
      std::atomic<int> calls{0};
      team.run(n, [&](size_t begin, size_t end) { calls += static_cast<int>(end - begin); });
      ASSERT_EQ(calls.load(), static_cast<int>(n));
    }
  }
}

}  // namespace
}  // namespace ccsim
