#include "courier/core/thread_team.hpp"

#include <algorithm>
#include <atomic>
#include <numeric>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "courier/core/bitset.hpp"

namespace thread_team_test {

TEST(ThreadTeam, RunsEveryMemberEachRound) {
  courier::ThreadTeam team(3);
  EXPECT_EQ(team.size(), 3u);
  std::atomic<int> calls{0};
  for (int round = 0; round < 200; ++round) team.run([&](unsigned) { calls.fetch_add(1); });
  EXPECT_EQ(calls.load(), 600);
}

TEST(ThreadTeam, ForRangeCoversTheRangeOnce) {
  courier::ThreadTeam team(4);
  std::vector<int> hits(1001, 0);
  team.for_range(hits.size(), [&](std::size_t begin, std::size_t end, unsigned) {
    for (std::size_t i = begin; i < end; ++i) ++hits[i];
  });
  EXPECT_EQ(std::accumulate(hits.begin(), hits.end(), 0), 1001);
  EXPECT_EQ(*std::min_element(hits.begin(), hits.end()), 1);
}

TEST(ThreadTeam, RethrowsAMembersException) {
  courier::ThreadTeam team(2);
  EXPECT_THROW(team.run([](unsigned member) {
    if (member == 1) throw std::runtime_error("member 1 failed");
  }),
               std::runtime_error);
  std::atomic<int> calls{0};
  team.run([&](unsigned) { calls.fetch_add(1); });  // still usable
  EXPECT_EQ(calls.load(), 2);
}

TEST(Bitset, ConcurrentSetsCountAndIterate) {
  courier::Bitset bits(1000);
  courier::ThreadTeam team(4);
  team.for_range(1000, [&](std::size_t begin, std::size_t end, unsigned) {
    for (std::size_t i = begin; i < end; ++i)
      if (i % 3 == 0) bits.set(i);
  });
  EXPECT_EQ(bits.count(), 334u);
  std::vector<std::size_t> seen;
  bits.for_each(100, 130, [&](std::size_t i) { seen.push_back(i); });
  EXPECT_EQ(seen, (std::vector<std::size_t>{102, 105, 108, 111, 114, 117, 120, 123, 126, 129}));
  EXPECT_FALSE(bits.set(999));  // already set
  bits.reset(999);
  EXPECT_FALSE(bits.test(999));
  bits.clear();
  EXPECT_FALSE(bits.any());
}

TEST(Bitset, ExclusiveSetsFromThreadsThatOwnWholeWordsLoseNoBit) {
  courier::Bitset bits(10000);
  courier::ThreadTeam team(4);
  std::atomic<std::size_t> next{0};
  team.run([&](unsigned) {  // chunks of 128 = two whole words each
    for (std::size_t begin = next.fetch_add(128); begin < 10000; begin = next.fetch_add(128))
      for (std::size_t i = begin; i < std::min<std::size_t>(10000, begin + 128); ++i)
        if (i % 5 != 0) bits.set_exclusive(i);
  });
  EXPECT_EQ(bits.count(), 8000u);
  EXPECT_FALSE(bits.test(5000));
  EXPECT_TRUE(bits.test(9999));
}

TEST(Bitset, AddAllUnitesWordByWordAndLeavesTheOtherAlone) {
  courier::Bitset into(200), other(200);
  into.set(1);
  into.set(130);
  other.set(1);
  other.set(64);
  other.set(199);
  into.add_all(other);
  std::vector<std::size_t> seen;
  into.for_each(0, 200, [&](std::size_t i) { seen.push_back(i); });
  EXPECT_EQ(seen, (std::vector<std::size_t>{1, 64, 130, 199}));
  EXPECT_EQ(other.count(), 3u);
  EXPECT_FALSE(other.test(130));
}

TEST(ThreadTeam, SumsTheBitsetWordsItsMembersScanAndLeavesOtherThreadsUncounted) {
  courier::Bitset bits(64 * 100);  // 100 words; past the list's room once every word is touched
  for (std::size_t i = 0; i < bits.size(); i += 64) bits.set(i);
  courier::ScanSlot* outside = courier::this_thread_scan_slot;
  {
    courier::ThreadTeam team(3);
    team.run([&](unsigned) { EXPECT_EQ(bits.count(0, bits.size()), 100u); });
    EXPECT_EQ(team.scanned_words(), 300u);
    EXPECT_EQ(bits.count(0, 64), 1u);  // the caller is member 0 while the team lives
    EXPECT_EQ(team.scanned_words(), 301u);
  }
  EXPECT_EQ(courier::this_thread_scan_slot, outside);
}

}  // namespace thread_team_test
