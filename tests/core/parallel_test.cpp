#include "courier/core/parallel.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace parallel_test {

using courier::chunk_of;
using courier::parallel_for;

TEST(Parallel, ChunksTileTheRangeInOrder) {
  for (std::uint64_t n : {0, 1, 5, 7, 100, 1001})
    for (unsigned parts : {1u, 2u, 3u, 7u}) {
      std::uint64_t expected_begin = 0;
      for (unsigned t = 0; t < parts; ++t) {
        const auto r = chunk_of(n, parts, t);
        EXPECT_EQ(r.begin, expected_begin);
        EXPECT_LE(r.end - r.begin, n / parts + 1);
        EXPECT_GE(r.end - r.begin, n / parts);
        expected_begin = r.end;
      }
      EXPECT_EQ(expected_begin, n);
    }
}

TEST(Parallel, EveryIndexRunsExactlyOnce) {
  for (unsigned threads : {1u, 2u, 3u, 8u})
    for (std::uint64_t n : {1, 2, 3, 10, 12345}) {
      std::vector<std::atomic<int>> hits(n);
      std::atomic<unsigned> calls{0};
      std::mutex m;
      std::vector<unsigned> indices;
      parallel_for(n, threads, [&](std::uint64_t begin, std::uint64_t end, unsigned t) {
        EXPECT_EQ(chunk_of(n, courier::parallel_parts(n, threads), t).begin, begin);
        for (std::uint64_t i = begin; i < end; ++i) ++hits[i];
        ++calls;
        std::lock_guard lock(m);
        indices.push_back(t);
      });
      for (auto& h : hits) ASSERT_EQ(h.load(), 1);
      EXPECT_EQ(calls.load(), std::min<std::uint64_t>(threads, n));
      std::sort(indices.begin(), indices.end());
      for (unsigned i = 0; i < indices.size(); ++i) EXPECT_EQ(indices[i], i);
    }
}

TEST(Parallel, NothingRunsForAnEmptyRange) {
  bool ran = false;
  parallel_for(0, 4, [&](std::uint64_t, std::uint64_t, unsigned) { ran = true; });
  EXPECT_FALSE(ran);
}

TEST(Parallel, DefaultThreadCountIsTheHardwares) {
  EXPECT_GE(courier::default_thread_count(), 1u);
  EXPECT_EQ(courier::parallel_parts(1000000, 0), courier::default_thread_count());
  std::atomic<std::uint64_t> sum{0};
  parallel_for(1000, [&](std::uint64_t begin, std::uint64_t end, unsigned) {
    for (std::uint64_t i = begin; i < end; ++i) sum += i;
  });
  EXPECT_EQ(sum.load(), 999u * 1000u / 2);
}

TEST(Parallel, ThreadsForSmallWorkIsOne) {
  EXPECT_EQ(courier::threads_for(0), 1u);
  EXPECT_EQ(courier::threads_for(1000), 1u);
  EXPECT_EQ(courier::threads_for(1000, 10), courier::default_thread_count() < 100 ? courier::default_thread_count() : 100u);
}

TEST(Parallel, RethrowsAChunksException) {
  EXPECT_THROW(parallel_for(100, 4,
                            [](std::uint64_t begin, std::uint64_t, unsigned) {
                              if (begin > 0) throw std::runtime_error("chunk failed");
                            }),
               std::runtime_error);
}

}  // namespace parallel_test
