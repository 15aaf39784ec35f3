// Machine and NUMA-aware placement on machines this one is not (hwloc's synthetic topologies).
#include "courier/core/machine.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "courier/core/error.hpp"
#include "courier/core/placement.hpp"

namespace machine_test {

namespace {

using namespace courier;

std::set<int> packages_of(const Machine& machine, const std::vector<unsigned>& pus) {
  std::set<int> packages;
  for (unsigned pu : pus) packages.insert(machine.package_of(pu));
  return packages;
}

TEST(Machine, ASyntheticMachineHasItsPackagesCoresAndPus) {
  const Machine machine = Machine::synthetic("package:2 core:4 pu:2");
  ASSERT_EQ(machine.packages.size(), 2u);
  EXPECT_EQ(machine.packages[0].cores.size(), 4u);
  EXPECT_EQ(machine.pus(), 16u);
  // Cores first: the first four PUs of package 0 are on four different cores.
  const std::vector<unsigned> first = machine.cores_first(0);
  ASSERT_EQ(first.size(), 8u);
  for (std::size_t c = 0; c < 4; ++c) EXPECT_EQ(first[c], machine.packages[0].cores[c].pus[0]);
  EXPECT_EQ(packages_of(machine, first), std::set<int>{0});
  EXPECT_EQ(machine.cores_first().size(), 16u);
}

TEST(Machine, AnUnbuildableDescriptionIsAnInputError) { EXPECT_THROW(Machine::synthetic("socket:two"), InputError); }

TEST(Machine, ThisProcessHasThePusItMayUse) {
  const Machine machine = Machine::of_this_process();
  EXPECT_EQ(machine.cores_first(), allowed_pus());
}

TEST(NumaPlacement, AsManyRanksAsPackagesGetOnePackageEach) {
  const Machine machine = Machine::synthetic("package:2 core:4 pu:1");
  const auto r0 = plan_numa_placement(machine, 4, 0, 2), r1 = plan_numa_placement(machine, 4, 1, 2);
  ASSERT_EQ(r0.size(), 4u);
  ASSERT_EQ(r1.size(), 4u);
  EXPECT_EQ(packages_of(machine, r0), std::set<int>{0});
  EXPECT_EQ(packages_of(machine, r1), std::set<int>{1});
}

TEST(NumaPlacement, RanksAreDealtToPackagesInBlocksWithDisjointPus) {
  const Machine machine = Machine::synthetic("package:2 core:4 pu:1");
  for (int ranks : {3, 4}) {
    std::set<unsigned> used;
    for (int r = 0; r < ranks; ++r) {
      const auto pus = plan_numa_placement(machine, 2, r, ranks);
      ASSERT_EQ(pus.size(), 2u) << r << " of " << ranks;
      EXPECT_EQ(packages_of(machine, pus).size(), 1u) << "rank " << r << " of " << ranks << " spans packages";
      EXPECT_EQ(*packages_of(machine, pus).begin(), r * 2 / ranks);
      for (unsigned pu : pus) EXPECT_TRUE(used.insert(pu).second) << "PU " << pu << " twice";
    }
  }
}

TEST(NumaPlacement, ARankWiderThanAPackageSpansThemAndTooManyThreadsPinNothing) {
  const Machine machine = Machine::synthetic("package:2 core:4 pu:1");
  EXPECT_EQ(packages_of(machine, plan_numa_placement(machine, 8, 0, 1)).size(), 2u);
  EXPECT_TRUE(plan_numa_placement(machine, 6, 0, 2).empty());
  EXPECT_TRUE(plan_numa_placement(machine, 9, 0, 1).empty());
}

TEST(NumaPlacement, OnePackageSlicesAsTheFlatPlacementDoes) {
  const Machine machine = Machine::synthetic("package:1 core:4 pu:2");
  for (int ranks : {1, 2, 4})
    for (int r = 0; r < ranks; ++r)
      EXPECT_EQ(plan_numa_placement(machine, 2, r, ranks), plan_placement(machine.cores_first(), 2, r, ranks));
}

// Fig. 5 of paper 003: who exchanges with whom decides who shares a package.
std::vector<double> pairs_exchange(std::size_t units, const std::vector<std::pair<std::size_t, std::size_t>>& pairs) {
  std::vector<double> exchange(units * units, 0.0);
  for (auto [a, b] : pairs) exchange[a * units + b] = exchange[b * units + a] = 1;
  return exchange;
}

TEST(NumaPlacement, PartneredWithoutExchangesDealsInBlocks) {
  const Machine machine = Machine::synthetic("package:2 core:4 pu:1");
  for (int ranks : {1, 2, 3, 4})
    for (unsigned threads : {1u, 2u}) {
      const auto units = static_cast<std::size_t>(ranks) * threads;
      const auto all = plan_partnered_placement(machine, threads, ranks, std::vector<double>(units * units, 0.0));
      ASSERT_EQ(all.size(), static_cast<std::size_t>(ranks));
      for (int r = 0; r < ranks; ++r)
        EXPECT_EQ(all[static_cast<std::size_t>(r)], plan_numa_placement(machine, threads, r, ranks)) << r;
    }
}

TEST(NumaPlacement, RanksThatExchangeShareAPackage) {
  // Ranks 0 and 2, 1 and 3 exchange (blocks would pair 0 with 1): each pair on one package.
  const Machine machine = Machine::synthetic("package:2 core:4 pu:1");
  const auto all = plan_partnered_placement(machine, 2, 4, pairs_exchange(8, {{0, 4}, {1, 5}, {2, 6}, {3, 7}}));
  ASSERT_EQ(all.size(), 4u);
  std::set<unsigned> used;
  for (const auto& pus : all) {
    ASSERT_EQ(pus.size(), 2u);
    EXPECT_EQ(packages_of(machine, pus).size(), 1u);
    for (unsigned pu : pus) EXPECT_TRUE(used.insert(pu).second) << "PU " << pu << " twice";
  }
  EXPECT_EQ(packages_of(machine, all[0]), packages_of(machine, all[2]));
  EXPECT_EQ(packages_of(machine, all[1]), packages_of(machine, all[3]));
  EXPECT_NE(packages_of(machine, all[0]), packages_of(machine, all[1]));
}

TEST(NumaPlacement, ThreadsOfARankWiderThanAPackageAreDealtByTheirExchanges) {
  // One rank of 8 threads on two packages of 4: threads u and u + 4 exchange.
  const Machine two = Machine::synthetic("package:2 core:4 pu:1");
  const auto one = plan_partnered_placement(two, 8, 1, pairs_exchange(8, {{0, 4}, {1, 5}, {2, 6}, {3, 7}}));
  ASSERT_EQ(one.size(), 1u);
  ASSERT_EQ(one[0].size(), 8u);
  for (std::size_t u = 0; u < 4; ++u) EXPECT_EQ(two.package_of(one[0][u]), two.package_of(one[0][u + 4])) << u;
  EXPECT_EQ(packages_of(two, one[0]).size(), 2u);
  // 32 threads on four packages of 8, too many dealings to try them all: the threads u with the
  // same u mod 4 exchange with each other, and each such eight gets a package.
  const Machine four = Machine::synthetic("package:4 core:8 pu:1");
  std::vector<std::pair<std::size_t, std::size_t>> cliques;
  for (std::size_t a = 0; a < 32; ++a)
    for (std::size_t b = a + 4; b < 32; b += 4) cliques.push_back({a, b});
  const auto wide = plan_partnered_placement(four, 32, 1, pairs_exchange(32, cliques));
  ASSERT_EQ(wide.size(), 1u);
  ASSERT_EQ(wide[0].size(), 32u);
  for (std::size_t u = 4; u < 32; ++u) EXPECT_EQ(four.package_of(wide[0][u]), four.package_of(wide[0][u % 4])) << u;
  EXPECT_EQ(packages_of(four, wide[0]).size(), 4u);
  EXPECT_EQ(std::set<unsigned>(wide[0].begin(), wide[0].end()).size(), 32u);
  // More threads than PUs: nothing pinned.
  EXPECT_TRUE(plan_partnered_placement(two, 9, 1, std::vector<double>(81, 0.0)).empty());
}

}  // namespace

}  // namespace machine_test
