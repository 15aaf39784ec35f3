// Bitset's word-at-a-time range operations agree with testing member by member.
#include "courier/core/bitset.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace bitset_test {

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

namespace {

// The members by testing every bit: what every faster path must agree with.
std::vector<std::size_t> members(const Bitset& set) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < set.size(); ++i)
    if (set.test(i)) out.push_back(i);
  return out;
}

// Words scanned by the calling thread while `fn` runs.
template <class Fn>
std::uint64_t words_scanned_by(Fn&& fn) {
  courier::ScanSlot slot;
  courier::ScanSlot* before = courier::this_thread_scan_slot;
  courier::this_thread_scan_slot = &slot;
  fn();
  courier::this_thread_scan_slot = before;
  return slot.words.load();
}

}  // namespace

TEST(Bitset, FewMembersCostTheirWordsNotTheSize) {
  Bitset set(1'000'000);  // 15,625 words
  const std::uint64_t words = words_scanned_by([&] {
    for (int round = 0; round < 100; ++round) {
      set.set(round * 9973 % 1'000'000);
      set.set(999'999);
      ASSERT_TRUE(set.listed());
      ASSERT_EQ(set.count(), 2u);
      ASSERT_TRUE(set.any());
      set.tidy();
      ASSERT_EQ(set.count(0, 500'000), round * 9973 % 1'000'000 < 500'000 ? 1u : 0u);
      std::vector<std::size_t> seen;
      set.for_each([&](std::size_t i) { seen.push_back(i); });
      ASSERT_EQ(seen.size(), 2u);
      ASSERT_EQ(seen.back(), 999'999u);
      set.clear();
      ASSERT_FALSE(set.any());
    }
  });
  EXPECT_LT(words, 100u * 20);  // a handful of words a round, where one scan alone is 15,625
}

TEST(Bitset, ListedAndScannedAgreeThroughResetsSwapsAndOverflow) {
  std::uint64_t x = 12345;
  auto next = [&] { return x ^= x << 13, x ^= x >> 7, x ^= x << 17; };
  for (std::size_t size : {1u, 64u, 100u, 640u, 5000u, 70'000u}) {
    SCOPED_TRACE(size);
    Bitset a(size), b(size);
    for (int round = 0; round < 40; ++round) {
      // Rounds of growing density: listed at first, past the list's room (an eighth of the words) later.
      const std::size_t sets = 1 + static_cast<std::size_t>(round) * round * size / 4000;
      for (std::size_t k = 0; k < sets; ++k) a.set(next() % size);
      for (std::size_t k = 0; k < sets / 4; ++k) a.reset(next() % size);
      for (std::size_t k = 0; k < sets / 4; ++k) a.set(next() % size);  // words reset to zero come back: listed once
      const std::vector<std::size_t> expected = members(a);
      ASSERT_EQ(a.count(), expected.size());
      ASSERT_EQ(a.any(), !expected.empty());
      a.tidy();
      const std::size_t begin = next() % size, end = begin + next() % (size - begin + 1);
      std::vector<std::size_t> seen;
      a.for_each(begin, end, [&](std::size_t i) { seen.push_back(i); });
      std::vector<std::size_t> in_range;
      for (std::size_t i : expected)
        if (i >= begin && i < end) in_range.push_back(i);
      ASSERT_EQ(seen, in_range);
      ASSERT_EQ(a.count(begin, end), in_range.size());
      b.add_all(a);
      std::vector<std::size_t> all;
      b.for_each([&](std::size_t i) { all.push_back(i); });
      ASSERT_EQ(all, members(b));
      a.swap(b);  // as a frontier takes an updated set
      b.clear();
      ASSERT_EQ(members(b), std::vector<std::size_t>{});
      ASSERT_EQ(b.count(), 0u);
      if (round % 7 == 6) a.clear();
      ASSERT_EQ(a.count(), members(a).size());
    }
  }
}

TEST(Bitset, TidyDropsEmptiedWordsAndListsAgainASetThatShrank) {
  Bitset set(64 * 800);  // room for 100 listed words
  for (std::size_t w = 0; w < 800; ++w) set.set(w * 64 + w % 64);
  EXPECT_FALSE(set.listed());  // every word touched: scanned
  for (std::size_t w = 0; w < 800; ++w)
    if (w % 100 != 7) set.reset(w * 64 + w % 64);
  set.tidy();  // one scan lists the eight words left
  ASSERT_TRUE(set.listed());
  EXPECT_EQ(set.count(), 8u);
  const std::uint64_t words = words_scanned_by([&] {
    for (int round = 0; round < 50; ++round) {  // a pending set: reset and set, never cleared
      set.reset(107 * 64 + 107 % 64);
      set.set(round * 64 + 1);
      set.tidy();
      ASSERT_TRUE(set.listed());
      set.set(round * 64 + 1);
      std::vector<std::size_t> seen;
      set.for_each([&](std::size_t i) { seen.push_back(i); });
      ASSERT_EQ(seen, members(set));
      set.reset(round * 64 + 1);
    }
  });
  EXPECT_LT(words, 50u * 40);  // tens of listed words a round, not 800
}

TEST(Bitset, FirstIsTheSmallestMemberListedOrNot) {
  Bitset empty(1000);
  EXPECT_EQ(empty.first(), 1000u);
  for (const std::size_t size : {std::size_t{70}, std::size_t{5000}}) {
    Bitset bits(size);
    bits.set(size - 1);
    EXPECT_EQ(bits.first(), size - 1);
    bits.set(65);
    bits.set(64);
    EXPECT_EQ(bits.first(), 64u);
    bits.reset(64);
    EXPECT_EQ(bits.first(), 65u);                            // an emptied bit of a word that is still listed
    for (std::size_t i = 66; i < size; i += 3) bits.set(i);  // past the list's room: scanned
    bits.set(3);
    EXPECT_EQ(bits.first(), 3u);
  }
}

TEST(Bitset, DrainVisitsAndRemovesExactlyTheRangeListedOrNot) {
  for (std::size_t members_every : {3u, 97u}) {  // dense (scanned) and sparse (listed)
    Bitset set(1000);
    for (std::size_t i = 0; i < 1000; i += members_every) set.set(i);
    set.tidy();
    std::vector<std::size_t> expected_left, drained, expected_drained;
    for (std::size_t i : members(set)) (i >= 70 && i < 931 ? expected_drained : expected_left).push_back(i);
    set.drain(70, 931, [&](std::size_t i) { drained.push_back(i); });
    EXPECT_EQ(drained, expected_drained) << members_every;
    EXPECT_EQ(members(set), expected_left) << members_every;
    EXPECT_EQ(set.count(), expected_left.size()) << members_every;
  }
}

TEST(Bitset, SetRangeAddsExactlyTheRangeAndCountsAgree) {
  for (auto [begin, end] : {std::pair<std::size_t, std::size_t>{0, 1000}, {3, 64}, {64, 128}, {70, 931}, {5, 5}}) {
    Bitset set(1000);
    set.set(1);
    set.set(999);
    set.set_range(begin, end);
    std::vector<std::size_t> expected;
    for (std::size_t i = 0; i < 1000; ++i)
      if (i == 1 || i == 999 || (i >= begin && i < end)) expected.push_back(i);
    EXPECT_EQ(members(set), expected) << begin << ".." << end;
    EXPECT_EQ(set.count(), expected.size()) << begin << ".." << end;
    set.tidy();
    std::vector<std::size_t> visited;
    set.for_each(0, 1000, [&](std::size_t i) { visited.push_back(i); });
    EXPECT_EQ(visited, expected) << begin << ".." << end;
  }
}

}  // namespace bitset_test
