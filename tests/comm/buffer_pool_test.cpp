// The one buffer pool: reuse without waste, the keep bound, the footprint it counts, and the
// allocator face that lends pooled buffers to the runtime.
#include "courier/comm/buffer_pool.hpp"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "courier/core/error.hpp"

namespace buffer_pool_test {

namespace comm = courier::comm;

TEST(BufferPool, ReusesAnIdleBufferThatFits) {
  comm::BufferPool pool(4);
  comm::Buffer a = pool.acquire(1000);
  EXPECT_GE(a.capacity(), 1000u);
  EXPECT_TRUE(a.empty());
  a.resize(1000);
  const std::byte* data = a.data();
  pool.recycle(std::move(a));
  comm::Buffer b = pool.acquire(900);
  EXPECT_EQ(b.data(), data);  // the same memory again
  EXPECT_TRUE(b.empty());     // handed out empty
}

TEST(BufferPool, ALargeRequestDoesNotTakeASmallBufferNorASmallOneAHugeBuffer) {
  comm::BufferPool pool(4);
  comm::Buffer small = pool.acquire(1000);
  pool.recycle(std::move(small));
  comm::Buffer big = pool.acquire(1 << 20);
  EXPECT_GE(big.capacity(), 1u << 20);  // a new one: the idle 1000 bytes cannot serve it
  const std::byte* big_data = big.data();
  pool.recycle(std::move(big));
  comm::Buffer tiny = pool.acquire(100);
  EXPECT_NE(tiny.data(), big_data);  // a megabyte is not held for 100 bytes
  EXPECT_LT(tiny.capacity(), 1u << 20);
}

TEST(BufferPool, NeverHandsOutAnEmptyBuffer) {
  comm::BufferPool pool(1);
  comm::Buffer b = pool.acquire(0);
  EXPECT_GE(b.capacity(), 1u);
  EXPECT_NE(b.data(), nullptr);
}

TEST(BufferPool, CountsTheFootprintAndItsPeak) {
  comm::BufferPool pool(8);
  comm::Buffer a = pool.acquire(4096);
  comm::Buffer b = pool.acquire(8192);
  const std::uint64_t both = a.capacity() + b.capacity();
  EXPECT_EQ(pool.alive_bytes(), both);
  pool.recycle(std::move(a));
  EXPECT_EQ(pool.alive_bytes(), both);  // idle buffers still count
  pool.add_fixed(1000);
  EXPECT_EQ(pool.peak_bytes(), both + 1000);
  pool.remove_fixed(1000);
  pool.restart_peak();  // frees the idle one
  EXPECT_EQ(pool.alive_bytes(), b.capacity());
  EXPECT_EQ(pool.peak_bytes(), b.capacity());
  const std::size_t before = b.capacity();
  b.reserve(before * 4);
  pool.resized(before, b.capacity());
  EXPECT_EQ(pool.alive_bytes(), b.capacity());
}

TEST(BufferPool, KeepsAtMostKeepIdleBuffersAndTheLargerOnes) {
  comm::BufferPool pool(2);
  std::vector<comm::Buffer> out;
  for (std::size_t bytes : {1000, 2000, 100000}) out.push_back(pool.acquire(bytes));
  const std::uint64_t largest_two = out[1].capacity() + out[2].capacity();
  pool.recycle(std::move(out[1]));
  pool.recycle(std::move(out[2]));
  pool.recycle(std::move(out[0]));  // full: this smallest one is freed
  EXPECT_EQ(pool.alive_bytes(), largest_two);
  pool.recycle(pool.acquire(200000));  // full: a larger one displaces the smallest idle one
  EXPECT_GE(pool.alive_bytes(), 200000u + 100000u);
  EXPECT_LT(pool.alive_bytes(), largest_two + 200000u);
}

TEST(PooledAllocator, LendsPooledMemoryAndTakesItBack) {
  comm::BufferPool pool(4);
  comm::PooledAllocator allocator(pool);
  std::byte* data = allocator.allocate(5000);
  data[4999] = std::byte{7};  // the whole size is usable
  comm::Buffer taken = allocator.take(data);
  EXPECT_EQ(taken.size(), 5000u);
  EXPECT_EQ(taken.data(), data);
  EXPECT_EQ(taken[4999], std::byte{7});
  pool.recycle(std::move(taken));
  std::byte* again = allocator.allocate(4000);
  EXPECT_EQ(again, data);  // recycled through the pool
  allocator.deallocate(again, 4000);
  EXPECT_THROW(allocator.take(again), courier::Error);  // already given back
}

TEST(BufferPool, IsSafeFromManyThreads) {
  comm::BufferPool pool(16);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&pool, t] {
      for (int i = 0; i < 2000; ++i) {
        comm::Buffer b = pool.acquire(static_cast<std::size_t>(64 + (i * 37 + t) % 20000));
        b.push_back(std::byte{1});
        pool.recycle(std::move(b));
      }
    });
  }
  for (std::thread& t : threads) t.join();
  pool.restart_peak();
  EXPECT_EQ(pool.alive_bytes(), 0u);
}

}  // namespace buffer_pool_test
