// SsspBuckets: vertices come back bucket by bucket, in order, each once, at the bucket of its
// latest distance; stale entries are skipped. Many buckets at once (more than the table of recent
// buckets holds, so its slots are shared and replaced), and the set moved between rounds.
#include "sssp_buckets.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace courier::algo {
namespace sssp_buckets_test {

using local_t = SsspBuckets::local_t;

TEST(SsspBuckets, TakesEachVertexOnceAtItsLatestBucketInOrder) {
  constexpr std::uint64_t kDelta = 3;
  constexpr local_t kVertices = 20000;
  std::vector<std::uint64_t> distance(kVertices);
  std::mt19937_64 random(7);
  SsspBuckets filed(kDelta);
  for (local_t v = 0; v < kVertices; ++v) {  // about 1,700 buckets: the recent table's slots collide
    distance[v] = random() % 5000;
    filed.file(v, distance[v]);
  }
  for (local_t v = 0; v < kVertices; v += 3) {                       // improved: filed again lower, the old entry stale
    if (distance[v] / 2 / kDelta == distance[v] / kDelta) continue;  // (the same bucket twice: taken twice)
    distance[v] /= 2;
    filed.file(v, distance[v]);
  }
  SsspBuckets pending(std::move(filed));
  const auto distance_of = [&](local_t v) { return distance[v]; };

  std::vector<int> taken(kVertices, 0);
  local_t early = kVertices;  // the first vertex taken
  std::uint64_t bucket = 0, last = 0;
  while (pending.first_bucket(distance_of, bucket)) {
    ASSERT_GE(bucket, last);
    last = bucket;
    pending.take_below(bucket + 1, distance_of, [&](local_t v) {
      EXPECT_EQ(distance[v] / kDelta, bucket) << "vertex " << v;
      ++taken[v];
      if (early == kVertices) early = v;
    });
    if (bucket == 100) {  // into a bucket taken before: it comes first, and once
      pending.file(early, distance[early]);
      last = 0;
    }
  }
  ASSERT_LT(distance[early] / kDelta, 100u);
  EXPECT_EQ(taken[early], 2);
  taken[early] = 1;
  EXPECT_TRUE(std::all_of(taken.begin(), taken.end(), [](int n) { return n == 1; }));
}

}  // namespace sssp_buckets_test
}  // namespace courier::algo
