// Activity filtering (paper 003, section 7.6; la/spmspv.hpp's kSparseBelow): a segment with fewer
// than kSparseBelow of its vertices active travels and is read as (index, value) pairs, one at or
// above it as a dense segment; a partial y likewise by its touched rows; with the filter off,
// nothing is ever sent or read as pairs. Each segment here is given a count of active vertices just
// under or just at the boundary, and one step of a min-label program shows which path it took --
// in the statistics and in the bytes that crossed ranks -- and that both paths compute the same y.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "courier/la/model.hpp"
#include "courier/la/semiring.hpp"
#include "courier/la/spmspv.hpp"
#include "support/local_stacks.hpp"

namespace activity_filter_test {

namespace {

using namespace courier;
using graph::vertex_t;

// One step: a vertex takes the smallest id among its active in-neighbours, if below its own.
struct OneStep {
  using S = la::MinSecond;
  using V = std::uint64_t;
  static constexpr bool stationary = false;
  std::shared_ptr<const std::vector<std::uint8_t>> active;
  V initial(vertex_t v) const { return v; }
  bool initially_active(vertex_t v) const { return (*active)[v] != 0; }
  void account(vertex_t, const V&, std::uint32_t, la::Totals&) const {}
  S::X broadcast(vertex_t, const V& value, std::uint32_t, const la::Totals&) const { return value; }
  bool apply(vertex_t, S::Y y, V& value, std::uint32_t, const la::Totals&, la::Totals&) const {
    value = std::min(value, y);
    return false;
  }
  bool more(unsigned iterations, double, const la::Totals&) const { return iterations == 0; }
};

constexpr vertex_t kWidth = 1000;  // of each of the two segments

// Two segments, each a cycle within itself, and vertex v of one joined both ways to vertex v of
// the other: the tile from segment j to segment i (i != j) touches one row per active column.
graph::EdgeList two_segments() {
  graph::EdgeList g;
  g.num_vertices = 2 * kWidth;
  for (vertex_t v = 0; v < kWidth; ++v) {
    g.edges.push_back({v, (v + 1) % kWidth});
    g.edges.push_back({kWidth + v, kWidth + (v + 1) % kWidth});
    g.edges.push_back({v, kWidth + v});
    g.edges.push_back({kWidth + v, v});
  }
  return g;
}

// The first count of active vertices of a segment `width` wide that is not below kSparseBelow of it.
std::size_t boundary(vertex_t width) {
  return static_cast<std::size_t>(std::ceil(la::kSparseBelow * static_cast<double>(width)));
}

struct Shape {
  int ranks;
  unsigned threads;
  unsigned tile_threads = 1;  // > 1: the MPI+X mode
  la::Placement placement = la::Placement::staggered;
};

struct Outcome {
  std::vector<std::uint64_t> values;
  std::vector<la::ModelStats> stats;  // by rank
};

Outcome run(const graph::EdgeList& g, const std::vector<std::uint8_t>& active, Shape shape, bool filter) {
  Outcome out{std::vector<std::uint64_t>(g.num_vertices), std::vector<la::ModelStats>(shape.ranks)};
  const OneStep program{std::make_shared<const std::vector<std::uint8_t>>(active)};
  const sync::StackSpec spec{.threads_per_rank = shape.tile_threads > 1 ? 1 : shape.threads};
  test_support::on_local_stacks(shape.ranks, spec, [&](comm::Runtime& runtime, sync::Stack& stack) {
    const la::Grid grid(shape.ranks, spec.threads_per_rank, g.num_vertices, shape.placement);
    graph::EdgeList mine;
    mine.num_vertices = g.num_vertices;
    for (const graph::Edge& e : g.edges)
      if (grid.rank_of(grid.owner(grid.segment_of(e.dst), grid.segment_of(e.src))) == runtime.rank())
        mine.edges.push_back(e);
    const la::Matrix matrix(grid, runtime.rank(), std::move(mine), stack.collective());
    la::Model<OneStep> model(matrix, runtime, stack.channel(), {}, program, filter, shape.tile_threads);
    model.run();
    for (unsigned k = 0; k < grid.size(); ++k)
      if (grid.rank_of(grid.leader(k)) == runtime.rank())
        std::copy(model.values(k).begin(), model.values(k).end(), out.values.begin() + grid.begin(k));
    out.stats[static_cast<std::size_t>(runtime.rank())] = model.stats();
  });
  return out;
}

// The step's values as a plain loop computes them.
std::vector<std::uint64_t> expected(const graph::EdgeList& g, const std::vector<std::uint8_t>& active) {
  std::vector<std::uint64_t> values(g.num_vertices);
  for (vertex_t v = 0; v < g.num_vertices; ++v) values[v] = v;
  for (const graph::Edge& e : g.edges)
    if (active[e.src]) values[e.dst] = std::min<std::uint64_t>(values[e.dst], e.src);
  return values;
}

// The first `counts[k]` vertices of segment k active.
std::vector<std::uint8_t> first_active(vertex_t width, const std::vector<std::size_t>& counts) {
  std::vector<std::uint8_t> active(width * counts.size(), 0);
  for (std::size_t k = 0; k < counts.size(); ++k) std::fill_n(active.begin() + k * width, counts[k], 1);
  return active;
}

std::string name(const Shape& s) {
  return std::to_string(s.ranks) + "x" + std::to_string(s.threads) +
         (s.tile_threads > 1 ? " MPI+X" : "") + (s.placement == la::Placement::cyclic ? " cyclic" : " staggered");
}

}  // namespace

// One segment of 2000 vertices on one rank: below the boundary x is read as pairs, at it dense,
// and never as pairs with the filter off.
TEST(ActivityFilter, OneSegmentJustUnderTheBoundaryIsSparseAndAtItDense) {
  graph::EdgeList g = two_segments();
  const std::size_t at = boundary(g.num_vertices);
  ASSERT_GT(at, 1u);
  for (const std::size_t count : {at - 1, at, at + 1})
    for (const bool filter : {true, false}) {
      const std::string where = std::to_string(count) + " of " + std::to_string(g.num_vertices) + " active" +
                                (filter ? "" : ", unfiltered");
      const std::vector<std::uint8_t> active = first_active(g.num_vertices, {count});
      const Outcome out = run(g, active, {1, 1}, filter);
      EXPECT_EQ(out.values, expected(g, active)) << where;
      const bool sparse = filter && count < at;
      EXPECT_EQ(out.stats[0].sparse_segments, sparse ? 1u : 0u) << where;
      EXPECT_EQ(out.stats[0].dense_segments, sparse ? 0u : 1u) << where;
      EXPECT_EQ(out.stats[0].iterations, 1u) << where;
    }
}

// Two segments of 1000, one just under the boundary and the other at it, on two ranks: rank k
// leads segment k. Staggered, x_k crosses to the other rank and no partial does; 2D-Cyclic at 2
// units deals the tiles by columns, so x stays on its rank and the partial of the other row group
// crosses instead, touching one row per active vertex. Either way what rank k sends is one
// message: pairs (4-byte index, 8-byte value, padded to 16) below the boundary, the dense segment
// (8 bytes a vertex) at it -- and dense with the filter off. On one rank of two threads nothing
// crosses, and the statistics alone tell.
TEST(ActivityFilter, SegmentsJustUnderAndAtTheBoundaryTravelAsPairsAndDense) {
  const graph::EdgeList g = two_segments();
  const std::size_t at = boundary(kWidth);
  ASSERT_GT(at, 1u);
  const std::size_t header = sizeof(la::SegmentHeader);
  const std::size_t pair = sizeof(la::Sparse<std::uint64_t>), dense = header + kWidth * sizeof(std::uint64_t);
  for (const Shape& shape : {Shape{2, 1}, Shape{2, 1, 1, la::Placement::cyclic}, Shape{2, 1, 2}, Shape{1, 2}})
    for (const std::vector<std::size_t>& counts :
         {std::vector<std::size_t>{at - 1, at}, std::vector<std::size_t>{at, at - 1},
          std::vector<std::size_t>{at + 1, 1}})
      for (const bool filter : {true, false}) {
        const std::string where = name(shape) + ", " + std::to_string(counts[0]) + " and " +
                                  std::to_string(counts[1]) + " active of " + std::to_string(kWidth) +
                                  (filter ? "" : ", unfiltered");
        const std::vector<std::uint8_t> active = first_active(kWidth, counts);
        const Outcome out = run(g, active, shape, filter);
        EXPECT_EQ(out.values, expected(g, active)) << where;
        std::uint64_t sparse_segments = 0, dense_segments = 0;
        for (const la::ModelStats& s : out.stats) sparse_segments += s.sparse_segments, dense_segments += s.dense_segments;
        std::uint64_t want_sparse = 0;
        for (std::size_t k = 0; k < 2; ++k) {
          const bool sparse = filter && counts[k] < at;
          want_sparse += sparse;
          if (shape.ranks == 1) continue;
          EXPECT_EQ(out.stats[k].messages, 1u) << where << ", rank " << k;
          EXPECT_EQ(out.stats[k].bytes, sparse ? header + counts[k] * pair : dense) << where << ", rank " << k;
        }
        EXPECT_EQ(sparse_segments, want_sparse) << where;
        EXPECT_EQ(dense_segments, 2 - want_sparse) << where;
      }
}

}  // namespace activity_filter_test
