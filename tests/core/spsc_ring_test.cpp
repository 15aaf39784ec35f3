#include "courier/core/spsc_ring.hpp"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "courier/core/backoff.hpp"

namespace spsc_ring_test {

using courier::SpscRing;

TEST(SpscRing, BoundedFifo) {
  SpscRing<int> ring(2);
  EXPECT_EQ(ring.capacity(), 2u);
  EXPECT_TRUE(ring.try_push(1));
  EXPECT_TRUE(ring.try_push(2));
  EXPECT_TRUE(ring.full());
  EXPECT_FALSE(ring.try_push(3));
  int out = 0;
  ASSERT_TRUE(ring.try_pop(out));
  EXPECT_EQ(out, 1);
  EXPECT_FALSE(ring.full());
  ASSERT_TRUE(ring.try_pop(out));
  EXPECT_EQ(out, 2);
  EXPECT_FALSE(ring.try_pop(out));
}

TEST(SpscRing, InPlaceSlotsKeepTheirBuffers) {
  SpscRing<std::vector<int>> ring(1);
  ASSERT_TRUE(ring.try_push_with([](std::vector<int>& slot) { slot.assign(100, 7); }));
  const int* first = nullptr;
  ASSERT_TRUE(ring.try_pop_with([&](std::vector<int>& slot) {
    EXPECT_EQ(slot.size(), 100u);
    first = slot.data();
  }));
  ASSERT_TRUE(ring.try_push_with([](std::vector<int>& slot) { slot.assign(50, 8); }));
  ASSERT_TRUE(ring.try_pop_with([&](std::vector<int>& slot) {
    EXPECT_EQ(slot.size(), 50u);
    EXPECT_EQ(slot.data(), first);  // the slot's allocation was reused
  }));
}

TEST(SpscRing, OrderPreservedAcrossThreads) {
  constexpr int n = 100000;
  SpscRing<int> ring(8);
  std::thread producer([&] {
    courier::Backoff backoff;
    for (int i = 0; i < n; ++i) {
      while (!ring.try_push(i)) backoff.pause();
      backoff.reset();
    }
  });
  courier::Backoff backoff;
  for (int expected = 0; expected < n;) {
    int value;
    if (ring.try_pop(value)) {
      ASSERT_EQ(value, expected);
      ++expected;
      backoff.reset();
    } else {
      backoff.pause();
    }
  }
  producer.join();
}

}  // namespace spsc_ring_test
