// 2D thread-based partitioning and 2DT-Staggered placement (Algorithm 1) on every (p, t) up to
// 8 x 8: one diagonal tile per global thread, the same number of tiles for every thread, t
// leaders per rank, and rank and local id consistent with the global id.
#include "courier/la/grid.hpp"

#include <gtest/gtest.h>

#include <vector>

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
