// Bitset's word-at-a-time range operations agree with testing member by member.
#include "courier/core/bitset.hpp"

#include <gtest/gtest.h>

using courier::Bitset;

TEST(Bitset, CountsTheMembersOfARange) {
  Bitset set(200);
  for (std::size_t i : {0u, 1u, 63u, 64u, 65u, 127u, 128u, 199u}) set.set(i);
  EXPECT_EQ(set.count(0, 200), 8u);
  EXPECT_EQ(set.count(1, 64), 2u);     // 1 and 63, within the first word
  EXPECT_EQ(set.count(63, 65), 2u);    // across a word boundary
  EXPECT_EQ(set.count(64, 128), 3u);   // exactly one word
  EXPECT_EQ(set.count(128, 199), 1u);  // end before the last member
  EXPECT_EQ(set.count(120, 120), 0u);  // empty
  EXPECT_EQ(set.count(199, 200), 1u);
}

TEST(Bitset, RangeCountEqualsMemberByMemberOnEveryRange) {
  Bitset set(150);
  for (std::size_t i = 0; i < 150; ++i)
    if ((i * 7919) % 5 < 2) set.set(i);
  for (std::size_t begin = 0; begin <= 150; ++begin) {
    std::size_t expected = 0;
    for (std::size_t end = begin; end <= 150; ++end) {
      ASSERT_EQ(set.count(begin, end), expected) << "[" << begin << ", " << end << ")";
      if (end < 150) expected += set.test(end);
    }
  }
}
