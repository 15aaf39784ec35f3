#include "courier/core/packet_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>
#include <vector>

namespace packet_pool_test {

using courier::PacketPool;

TEST(PacketPool, EmptyPoolAnswersNullAndRecovers) {
  PacketPool pool(2, 100);
  EXPECT_EQ(pool.packet_bytes(), 128u);
  EXPECT_EQ(pool.cache_capacity(), 0u);
  std::byte* a = pool.try_acquire();
  std::byte* b = pool.try_acquire();
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_NE(a, b);
  EXPECT_TRUE(pool.owns(a));
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a) % 64, 0u);
  EXPECT_EQ(pool.try_acquire(), nullptr);  // soft failure
  EXPECT_EQ(pool.in_use(), 2u);
  pool.release(a);
  EXPECT_EQ(pool.try_acquire(), a);
  pool.release(a);
  pool.release(b);
  EXPECT_EQ(pool.in_use(), 0u);
  EXPECT_EQ(pool.high_water(), 2u);
}

TEST(PacketPool, ThreadCacheReturnsOwnPacketFirst) {
  PacketPool pool(256, 64);
  EXPECT_EQ(pool.cache_capacity(), 16u);
  std::byte* a = pool.try_acquire();
  pool.release(a);
  EXPECT_EQ(pool.try_acquire(), a);  // locality: the packet this thread just released
  pool.release(a);
}

TEST(PacketPool, AllPacketsReachableAfterThreadsExit) {
  PacketPool pool(128, 64);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      std::vector<std::byte*> held;
      for (int round = 0; round < 200; ++round) {
        while (held.size() < 8) {
          std::byte* p = pool.try_acquire();
          if (!p) break;
          p[0] = std::byte{1};
          held.push_back(p);
        }
        for (std::byte* p : held) pool.release(p);
        held.clear();
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(pool.in_use(), 0u);
  // Exited threads gave their caches back: this thread can take every packet, each once.
  std::set<std::byte*> all;
  while (std::byte* p = pool.try_acquire()) all.insert(p);
  EXPECT_EQ(all.size(), 128u);
  for (std::byte* p : all) pool.release(p);
}

TEST(PacketPool, ConcurrentAcquireNeverExceedsCount) {
  PacketPool pool(64, 64, 4);
  std::atomic<int> held{0}, max_held{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      std::vector<std::byte*> mine;
      for (int i = 0; i < 20000; ++i) {
        if (std::byte* p = pool.try_acquire()) {
          mine.push_back(p);
          int now = held.fetch_add(1) + 1;
          int m = max_held.load();
          while (now > m && !max_held.compare_exchange_weak(m, now)) {
          }
        }
        if (mine.size() > 10 || (!mine.empty() && i % 3 == 0)) {
          held.fetch_sub(1);
          pool.release(mine.back());
          mine.pop_back();
        }
      }
      for (std::byte* p : mine) {
        held.fetch_sub(1);
        pool.release(p);
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_LE(max_held.load(), 64);
  EXPECT_LE(pool.high_water(), 64u);
  EXPECT_EQ(pool.in_use(), 0u);
}

}  // namespace packet_pool_test
