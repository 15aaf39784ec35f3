// 2D thread-based partitioning and 2DT-Staggered placement (Algorithm 1) on every (p, t) up to
// 8 x 8: one diagonal tile per global thread, the same number of tiles for every thread, t
// leaders per rank, and rank and local id consistent with the global id; and Fig. 5's NUMA-aware
// assignment of the threads on synthetic machines.
#include "courier/la/grid.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "courier/core/machine.hpp"
#include "courier/core/placement.hpp"

namespace grid_test {

namespace la = courier::la;
using graph_vertices = courier::graph::vertex_t;

TEST(Factorize, GivesTheClosestPairOfFactors) {
  for (unsigned n = 1; n <= 64; ++n) {
    const auto [r, c] = la::factorize(n);
    EXPECT_EQ(r * c, n);
    EXPECT_LE(r, c);
    for (unsigned d = r + 1; d * d <= n; ++d) EXPECT_NE(n % d, 0u) << n << " has a closer factor " << d;
  }
  EXPECT_EQ(la::factorize(12), std::make_pair(3u, 4u));
  EXPECT_EQ(la::factorize(7), std::make_pair(1u, 7u));
}

TEST(Grid, EveryThreadLeadsOnceAndOwnsAsManyTilesAsEveryOther) {
  for (int p = 1; p <= 8; ++p) {
    for (unsigned t = 1; t <= 8; ++t) {
      const la::Grid grid(p, t, 1000);
      const unsigned n = grid.size();
      ASSERT_EQ(n, static_cast<unsigned>(p) * t);
      std::vector<unsigned> leads(n, 0), tiles(n, 0), leaders_of_rank(static_cast<std::size_t>(p), 0);
      for (unsigned i = 0; i < n; ++i) {
        ++leads[grid.leader(i)];
        ++leaders_of_rank[static_cast<std::size_t>(grid.rank_of(grid.leader(i)))];
        for (unsigned j = 0; j < n; ++j) ++tiles[grid.owner(i, j)];
      }
      for (unsigned g = 0; g < n; ++g) {
        EXPECT_EQ(leads[g], 1u) << "p " << p << " t " << t << " thread " << g;
        EXPECT_EQ(tiles[g], n) << "p " << p << " t " << t << " thread " << g;
        EXPECT_LT(grid.rank_of(g), p);
        EXPECT_LT(grid.local_of(g), t);
        EXPECT_EQ(grid.global(grid.rank_of(g), grid.local_of(g)), g);
      }
      for (unsigned leaders : leaders_of_rank) EXPECT_EQ(leaders, t) << "p " << p << " t " << t;
    }
  }
}

TEST(Grid, CyclicDealsEveryUnitTheSameNumberOfTilesInAFixedPattern) {
  for (int p = 1; p <= 8; ++p) {
    for (unsigned t = 1; t <= 3; ++t) {
      const la::Grid grid(p, t, 1000, la::Placement::cyclic);
      const unsigned n = grid.size();
      const auto [r, c] = la::factorize(n);
      std::vector<unsigned> tiles(n, 0);
      for (unsigned i = 0; i < n; ++i)
        for (unsigned j = 0; j < n; ++j) {
          EXPECT_EQ(grid.owner(i, j), (i % r) * c + j % c);
          ++tiles[grid.owner(i, j)];
        }
      for (unsigned g = 0; g < n; ++g) EXPECT_EQ(tiles[g], n) << "p " << p << " t " << t;
    }
  }
  // 2D-Cyclic leaves some units without a diagonal tile: p = 4 leads from P0 and P3 only (Fig. 1b).
  const la::Grid four(4, 1, 100, la::Placement::cyclic);
  EXPECT_EQ(four.leader(0), 0u);
  EXPECT_EQ(four.leader(1), 3u);
  EXPECT_EQ(four.leader(2), 0u);
}

TEST(Grid, FollowsAlgorithmOneWhereItsDiagonalIsADerangement) {
  // p = 4, t = 2 (Fig. 3): t_r = 2, t_c = 4, rows 4-7 shifted by r_t = 2.
  const la::Grid grid(4, 2, 64);
  EXPECT_EQ(grid.owner(0, 0), 0u);
  EXPECT_EQ(grid.owner(0, 1), 1u);
  EXPECT_EQ(grid.owner(1, 0), 2u);
  EXPECT_EQ(grid.owner(4, 4), 2u);  // (0 * 2 + 0 + 2) mod 8
  EXPECT_EQ(grid.owner(7, 7), 1u);  // (3 * 2 + 1 + 2) mod 8
  EXPECT_EQ(grid.rank_of(5), 1);
  EXPECT_EQ(grid.local_of(5), 1u);
}

TEST(Grid, SegmentsCoverTheVerticesInOrder) {
  const la::Grid grid(3, 2, 100);
  for (unsigned i = 0; i < grid.size(); ++i) {
    EXPECT_EQ(grid.begin(i), i == 0 ? 0u : grid.end(i - 1));
    for (auto v = grid.begin(i); v < grid.end(i); ++v) EXPECT_EQ(grid.segment_of(v), i);
  }
  EXPECT_EQ(grid.end(grid.size() - 1), 100u);
  const la::Grid tiny(4, 2, 3);  // more segments than vertices: the last ones are empty
  EXPECT_EQ(tiny.end(tiny.size() - 1), 3u);
}

TEST(Grid, SegmentOfDividesExactlyAtEveryWidth) {
  // Widths small, odd, powers of two and near 2^32, vertices up to and past 2^32 (where the
  // multiplication gives way to a division).
  for (const graph_vertices n : {graph_vertices{7}, graph_vertices{1} << 20, (graph_vertices{1} << 20) + 3,
                                 graph_vertices{3'000'000'007}, graph_vertices{1} << 33, (graph_vertices{1} << 35) - 5})
    for (const unsigned units : {1u, 2u, 3u, 5u, 8u}) {
      const la::Grid grid(1, units, n);
      const graph_vertices w = grid.width();
      for (const graph_vertices v : {graph_vertices{0}, w - 1, w, 2 * w - 1, n / 2, n - 1, graph_vertices{0xffffffffu},
                                     graph_vertices{0xfffffffeu}}) {
        if (v >= n) continue;
        EXPECT_EQ(grid.segment_of(v), v / w) << "v " << v << " width " << w;
      }
    }
}

TEST(Grid, MapDrawsEveryTileWithItsRankAndThread) {
  const std::string map = la::Grid(2, 2, 16).map();
  EXPECT_NE(map.find("P0T0*"), std::string::npos) << map;
  EXPECT_NE(map.find("P1T1"), std::string::npos) << map;
  std::size_t stars = 0;
  for (char c : map) stars += c == '*';
  EXPECT_EQ(stars, 4u + 1u) << map;  // one per diagonal tile, and the header's
}

// Fig. 5's NUMA-aware assignment on machines this one is not (hwloc's synthetic topologies):
// the grid's exchanges, and the threads dealt so that group partners share a package.
namespace {

using courier::Machine;

// The package of every unit (rank * threads + local) under `pus`.
std::vector<int> unit_packages(const Machine& machine, const std::vector<std::vector<unsigned>>& pus) {
  std::vector<int> out;
  for (const auto& rank : pus)
    for (unsigned pu : rank) out.push_back(machine.package_of(pu));
  return out;
}

// The most exchange within packages of any dealing of whole ranks, `count[k]` to package k.
double best_within(const la::Grid& grid, const std::vector<double>& exchange, std::vector<std::size_t> count,
                   std::vector<int>& at, std::size_t rank = 0) {
  const std::size_t p = static_cast<std::size_t>(grid.ranks()), t = grid.threads(), units = p * t;
  if (rank == p) {
    double sum = 0;
    for (std::size_t a = 0; a < units; ++a)
      for (std::size_t b = 0; b < units; ++b)
        if (a != b && at[a / t] == at[b / t]) sum += exchange[a * units + b];
    return sum;
  }
  double best = -1;
  for (std::size_t k = 0; k < count.size(); ++k) {
    if (count[k] == 0) continue;
    --count[k];
    at[rank] = static_cast<int>(k);
    best = std::max(best, best_within(grid, exchange, count, at, rank + 1));
    ++count[k];
  }
  return best;
}

}  // namespace

TEST(Grid, ExchangeCountsEveryPartialAndEveryXOnce) {
  for (auto placement : {la::Placement::staggered, la::Placement::cyclic})
    for (int p : {1, 2, 3, 4, 6})
      for (unsigned t : {1u, 2u, 4u}) {
        const la::Grid grid(p, t, 1000, placement);
        const std::vector<double> exchange = grid.exchange();
        const unsigned n = grid.size();
        ASSERT_EQ(exchange.size(), std::size_t{n} * n);
        // Every row group's followers send one partial; every follower of a column gets x once.
        double expected = 0;
        for (unsigned k = 0; k < n; ++k) {
          std::vector<bool> row(n, false), column(n, false);
          for (unsigned j = 0; j < n; ++j) row[grid.owner(k, j)] = true, column[grid.owner(j, k)] = true;
          expected += static_cast<double>(std::count(row.begin(), row.end(), true) - row[grid.leader(k)]);
          expected += static_cast<double>(std::count(column.begin(), column.end(), true) - column[grid.leader(k)]);
        }
        double total = 0;
        for (std::size_t u = 0; u < n; ++u) EXPECT_EQ(exchange[u * n + u], 0.0);
        for (double e : exchange) total += e;
        EXPECT_EQ(total, expected) << p << " x " << t;
      }
}

TEST(NumaAssignment, RowGroupPartnersShareAPackage) {
  // 4 ranks of 2 threads on two packages of four cores (Fig. 5's p = 4, t = 2): a row group's
  // owners are two ranks, on one package, and no PU is used twice.
  const Machine machine = Machine::synthetic("package:2 core:4 pu:1");
  const la::Grid grid(4, 2, 1000);
  const auto pus = courier::plan_partnered_placement(machine, 2, 4, grid.exchange());
  ASSERT_EQ(pus.size(), 4u);
  const std::vector<int> package = unit_packages(machine, pus);
  ASSERT_EQ(package.size(), 8u);
  std::set<unsigned> used;
  for (const auto& rank : pus)
    for (unsigned pu : rank) EXPECT_TRUE(used.insert(pu).second) << "PU " << pu << " twice";
  for (unsigned r = 0; r < 4; ++r) EXPECT_EQ(package[r * 2], package[r * 2 + 1]) << "rank " << r << " spans packages";
  const auto unit = [&](unsigned g) { return static_cast<std::size_t>(grid.rank_of(g)) * 2 + grid.local_of(g); };
  for (unsigned i = 0; i < grid.size(); ++i)
    for (unsigned j = 0; j < grid.size(); ++j)
      EXPECT_EQ(package[unit(grid.owner(i, j))], package[unit(grid.leader(i))]) << "row group " << i;
}

TEST(NumaAssignment, PartnersShareAPackageAsMuchAsAnyDealingAllows) {
  // Whole ranks to packages, as many to each as blocks give: the exchange kept within packages is
  // the most any such dealing keeps; on 8 ranks over two packages, blocks keep less (16 of 24).
  struct Case {
    const char* machine;
    int ranks;
    unsigned threads;
    la::Placement placement;
  };
  const Case cases[] = {{"package:2 core:4 pu:1", 8, 1, la::Placement::staggered},
                        {"package:2 core:4 pu:1", 6, 1, la::Placement::staggered},
                        {"package:3 core:2 pu:1", 6, 1, la::Placement::cyclic},
                        {"package:2 core:8 pu:1", 8, 2, la::Placement::staggered},
                        {"package:2 core:4 pu:1", 4, 2, la::Placement::cyclic},
                        {"package:4 core:2 pu:1", 8, 1, la::Placement::staggered}};
  for (const Case& c : cases) {
    const Machine machine = Machine::synthetic(c.machine);
    const la::Grid grid(c.ranks, c.threads, 1000, c.placement);
    const std::vector<double> exchange = grid.exchange();
    const auto pus = courier::plan_partnered_placement(machine, c.threads, c.ranks, exchange);
    ASSERT_EQ(pus.size(), static_cast<std::size_t>(c.ranks)) << c.machine;
    std::vector<std::size_t> count(machine.packages.size(), 0);
    for (int r = 0; r < c.ranks; ++r) {
      ++count[static_cast<std::size_t>(r) * machine.packages.size() / static_cast<std::size_t>(c.ranks)];
      ASSERT_EQ(pus[static_cast<std::size_t>(r)].size(), c.threads);
    }
    std::vector<int> at(static_cast<std::size_t>(c.ranks), 0);
    const double best = best_within(grid, exchange, count, at);
    EXPECT_EQ(courier::exchange_within_packages(machine, c.threads, pus, exchange), best)
        << c.machine << ", " << c.ranks << " x " << c.threads;
    std::vector<std::vector<unsigned>> in_blocks;
    for (int r = 0; r < c.ranks; ++r)
      in_blocks.push_back(courier::plan_numa_placement(machine, c.threads, r, c.ranks));
    EXPECT_LE(courier::exchange_within_packages(machine, c.threads, in_blocks, exchange), best);
  }
  const Machine two = Machine::synthetic("package:2 core:4 pu:1");
  const la::Grid grid(8, 1, 1000);
  std::vector<std::vector<unsigned>> in_blocks;
  for (int r = 0; r < 8; ++r) in_blocks.push_back(courier::plan_numa_placement(two, 1, r, 8));
  EXPECT_EQ(courier::exchange_within_packages(two, 1, in_blocks, grid.exchange()), 16.0);
  EXPECT_EQ(courier::exchange_within_packages(two, 1, courier::plan_partnered_placement(two, 1, 8, grid.exchange()),
                                              grid.exchange()),
            24.0);
}

}  // namespace grid_test
