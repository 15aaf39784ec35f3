#include <gtest/gtest.h>

#include "courier/graph/reference.hpp"
#include "graph/graph_builders.hpp"

namespace reference_triangles_test {

using namespace courier::graph;
using namespace courier::graph::testing;
using courier::graph::reference::triangles;

TEST(ReferenceTriangles, OneDirectedTriangleCountsOnce) {
  const auto r = triangles(csr(4, {{0, 1}, {1, 2}, {2, 0}, {2, 3}}));
  EXPECT_EQ(r.total, 1u);
  EXPECT_EQ(r.per_vertex, (std::vector<std::uint64_t>{1, 1, 1, 0}));
}

TEST(ReferenceTriangles, CompleteGraphOnFour) {
  const auto r = triangles(undirected_csr(4, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}));
  EXPECT_EQ(r.total, 4u);
  EXPECT_EQ(r.per_vertex, (std::vector<std::uint64_t>{3, 3, 3, 3}));
}

TEST(ReferenceTriangles, DiamondWithLoopsAndDuplicatesIgnored) {
  // Two triangles sharing the edge 1-2, plus loops, a duplicate and a reverse edge.
  const auto r = triangles(csr(5, {{0, 1}, {1, 2}, {2, 0}, {1, 3}, {3, 2}, {1, 1}, {0, 1}, {1, 0}, {3, 3}}));
  EXPECT_EQ(r.total, 2u);
  EXPECT_EQ(r.per_vertex, (std::vector<std::uint64_t>{1, 2, 2, 1, 0}));
}

TEST(ReferenceTriangles, NoneInPathsStarsSquaresAndEmpty) {
  EXPECT_EQ(triangles(csr(4, {{0, 1}, {1, 2}, {2, 3}})).total, 0u);
  EXPECT_EQ(triangles(undirected_csr(5, {{0, 1}, {0, 2}, {0, 3}, {0, 4}})).total, 0u);
  EXPECT_EQ(triangles(csr(4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}})).total, 0u);
  const auto empty = triangles(Csr());
  EXPECT_EQ(empty.total, 0u);
  EXPECT_TRUE(empty.per_vertex.empty());
}

}  // namespace reference_triangles_test
