#include "courier/vertex/frontier.hpp"

#include <vector>

#include <gtest/gtest.h>

namespace frontier_test {

using namespace courier;
using namespace courier::vertex;

TEST(Frontier, FewActiveAreListedInOrder) {
  Frontier f(10000);
  for (local_t v : {7u, 3u, 9000u}) f.add(v);
  EXPECT_EQ(f.prepare(), 3u);
  ASSERT_TRUE(f.sparse());
  EXPECT_EQ(std::vector<local_t>(f.list().begin(), f.list().end()), (std::vector<local_t>{3, 7, 9000}));
}

TEST(Frontier, ManyActiveStayABitset) {
  Frontier f(1000);
  for (local_t v = 0; v < 1000; v += 2) f.add(v);
  EXPECT_EQ(f.prepare(), 500u);
  EXPECT_FALSE(f.sparse());
  EXPECT_TRUE(f.contains(998));
  EXPECT_FALSE(f.contains(999));
}

TEST(Frontier, TakeMovesTheUpdatedSetAndEmptiesIt) {
  Frontier f(100);
  f.add(1);
  Bitset updated(100);
  updated.set(42);
  f.take(updated);
  EXPECT_EQ(f.prepare(), 1u);
  EXPECT_TRUE(f.contains(42));
  EXPECT_FALSE(f.contains(1));
  EXPECT_EQ(updated.size(), 100u);
  EXPECT_FALSE(updated.any());
}

}  // namespace frontier_test
