// Placement: slices of the allowed PUs by local rank, nothing when they do not fit, and teams
// that really run where they were placed (checked with sched_getcpu) and give the caller back.
#include "courier/core/placement.hpp"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <vector>

#include <gtest/gtest.h>

#include "courier/core/thread_team.hpp"

namespace placement_test {

using namespace courier;

TEST(Placement, RanksTakeDisjointSlicesWhenTheyFit) {
  const std::vector<unsigned> pus{0, 2, 4, 6, 1, 3, 5, 7};
  EXPECT_EQ(plan_placement(pus, 2, 0, 4), (std::vector<unsigned>{0, 2}));
  EXPECT_EQ(plan_placement(pus, 2, 3, 4), (std::vector<unsigned>{5, 7}));
  EXPECT_EQ(plan_placement(pus, 1, 1, 2), (std::vector<unsigned>{2}));
  EXPECT_EQ(plan_placement(pus, 8, 0, 1), pus);
}

TEST(Placement, NothingIsPinnedWhenTheSlicesDoNotFit) {
  const std::vector<unsigned> pus{0, 1};
  EXPECT_TRUE(plan_placement(pus, 2, 0, 2).empty());  // 4 threads on 2 PUs
  EXPECT_TRUE(plan_placement(pus, 3, 0, 1).empty());
  EXPECT_TRUE(plan_placement(pus, 1, 2, 2).empty());  // a rank outside its count
  EXPECT_TRUE(plan_placement({}, 1, 0, 1).empty());
  EXPECT_TRUE(placement_for(1, {.pin = false}).empty());
}

TEST(Placement, AllowedPusAreDistinctAndIncludeWhereWeRun) {
  const auto pus = allowed_pus();
  ASSERT_FALSE(pus.empty());
  std::vector<unsigned> sorted = pus;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end());
  EXPECT_TRUE(std::find(pus.begin(), pus.end(), static_cast<unsigned>(sched_getcpu())) != pus.end());
}

TEST(Placement, TheLaunchersLocalRankIsRead) {
  ::setenv("OMPI_COMM_WORLD_LOCAL_RANK", "1", 1);
  ::setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "3", 1);
  const LocalRank local = local_rank_from_launcher();
  ::unsetenv("OMPI_COMM_WORLD_LOCAL_RANK");
  ::unsetenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  EXPECT_EQ(local.rank, 1);
  EXPECT_EQ(local.ranks, 3);
}

TEST(Placement, APinnedTeamRunsEachMemberOnItsPuAndRestoresTheCaller) {
  const auto pus = allowed_pus();
  if (pus.size() < 2) GTEST_SKIP() << "one PU: nothing to spread over";
  const std::vector<unsigned> place{pus[1], pus[0]};  // reversed, so a no-op would be caught
  std::vector<std::atomic<int>> ran_on(2);
  {
    ThreadTeam team(2, place);
    ASSERT_EQ(team.pus(), place);
    for (int round = 0; round < 20; ++round)
      team.run([&](unsigned member) { ran_on[member].store(sched_getcpu()); });
    EXPECT_EQ(ran_on[0].load(), static_cast<int>(place[0]));
    EXPECT_EQ(ran_on[1].load(), static_cast<int>(place[1]));
  }
  // The caller may run anywhere it could before: on the other PU too, eventually.
  cpu_set_t mask;
  CPU_ZERO(&mask);
  ASSERT_EQ(sched_getaffinity(0, sizeof mask, &mask), 0);
  for (unsigned pu : pus) EXPECT_TRUE(CPU_ISSET(pu, &mask)) << "PU " << pu << " is no longer allowed";
}

TEST(Placement, ATeamWithTheWrongNumberOfPusIsNotPinned) {
  ThreadTeam team(3, {0});
  EXPECT_TRUE(team.pus().empty());
  std::atomic<int> calls{0};
  team.run([&](unsigned) { calls.fetch_add(1); });
  EXPECT_EQ(calls.load(), 3);
}

}  // namespace placement_test
