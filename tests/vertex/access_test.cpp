// The sync rule: what a label needs after a round, from the policy and where it is written/read.
#include "courier/vertex/access.hpp"

#include <gtest/gtest.h>

namespace access_test {

using namespace courier::vertex;
using courier::dist::Policy;

TEST(SyncPlan, AlongEdgesNeedsReduceOnOecBroadcastOnIecBothOnVertexCuts) {
  EXPECT_EQ(sync_plan(Policy::oec, 2, kAlongEdges), (SyncPlan{true, false}));
  EXPECT_EQ(sync_plan(Policy::iec, 2, kAlongEdges), (SyncPlan{false, true}));
  EXPECT_EQ(sync_plan(Policy::cvc, 2, kAlongEdges), (SyncPlan{true, true}));
  EXPECT_EQ(sync_plan(Policy::hash, 3, kAlongEdges), (SyncPlan{true, true}));
}

TEST(SyncPlan, OneRankNeedsNothing) {
  for (Policy p : {Policy::oec, Policy::iec, Policy::cvc, Policy::hash})
    EXPECT_EQ(sync_plan(p, 1, kBothWays), (SyncPlan{false, false}));
}

TEST(SyncPlan, BothWaysNeedsBothEverywhere) {
  for (Policy p : {Policy::oec, Policy::iec, Policy::cvc, Policy::hash})
    EXPECT_EQ(sync_plan(p, 4, kBothWays), (SyncPlan{true, true}));
}

TEST(SyncPlan, MasterOnlyAccessNeverTravelsThatWay) {
  // Written at destinations, read only by masters (e.g. pagerank's pulled sums).
  EXPECT_EQ(sync_plan(Policy::oec, 2, {At::destination, At::master}), (SyncPlan{true, false}));
  EXPECT_EQ(sync_plan(Policy::iec, 2, {At::destination, At::master}), (SyncPlan{false, false}));
  // Written by masters, read at sources (e.g. pagerank's shares).
  EXPECT_EQ(sync_plan(Policy::oec, 2, {At::master, At::source}), (SyncPlan{false, false}));
  EXPECT_EQ(sync_plan(Policy::hash, 2, {At::master, At::source}), (SyncPlan{false, true}));
}

}  // namespace access_test
