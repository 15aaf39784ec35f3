// Machine and NUMA-aware placement on machines this one is not (hwloc's synthetic topologies).
#include "courier/core/machine.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "courier/core/error.hpp"
#include "courier/core/placement.hpp"

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

}  // namespace
