#include "courier/core/mpmc_queue.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace mpmc_queue_test {

using courier::MpmcQueue;

TEST(MpmcQueue, FifoAndBoundedForOneThread) {
  MpmcQueue<int> q(3);  // rounded up to 4
  EXPECT_EQ(q.capacity(), 4u);
  int out = -1;
  EXPECT_FALSE(q.try_pop(out));
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(q.try_push(i));
  EXPECT_FALSE(q.try_push(99));  // full: soft failure
  EXPECT_EQ(q.size_approx(), 4u);
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(q.try_pop(out));
    EXPECT_EQ(out, i);
  }
  EXPECT_FALSE(q.try_pop(out));
  // Wraps around many times.
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(q.try_push(i));
    ASSERT_TRUE(q.try_pop(out));
    ASSERT_EQ(out, i);
  }
}

TEST(MpmcQueue, EveryItemExactlyOnceUnderContention) {
  constexpr int producers = 3, consumers = 3, per_producer = 20000;
  MpmcQueue<int> q(64);
  std::vector<std::atomic<int>> seen(producers * per_producer);
  std::atomic<int> popped{0};
  std::vector<std::thread> threads;
  for (int p = 0; p < producers; ++p) {
    threads.emplace_back([&, p] {
      courier::Backoff backoff;
      for (int i = 0; i < per_producer; ++i) {
        while (!q.try_push(p * per_producer + i)) backoff.pause();
        backoff.reset();
      }
    });
  }
  for (int c = 0; c < consumers; ++c) {
    threads.emplace_back([&] {
      courier::Backoff backoff;
      int value;
      while (popped.load() < producers * per_producer) {
        if (q.try_pop(value)) {
          seen[value].fetch_add(1);
          popped.fetch_add(1);
          backoff.reset();
        } else {
          backoff.pause();
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  for (auto& s : seen) ASSERT_EQ(s.load(), 1);
  int out;
  EXPECT_FALSE(q.try_pop(out));
}

}  // namespace mpmc_queue_test
