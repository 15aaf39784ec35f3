#include <gtest/gtest.h>

#include "courier/graph/reference.hpp"
#include "graph/graph_builders.hpp"

namespace reference_components_test {

using namespace courier::graph;
using namespace courier::graph::testing;
using courier::graph::reference::connected_components;

TEST(ReferenceComponents, TwoComponentsAndIsolatedVerticesBySmallestId) {
  const Csr g = csr(7, {{3, 5}, {1, 5}, {6, 4}});
  EXPECT_EQ(connected_components(g), (std::vector<vertex_t>{0, 1, 2, 1, 4, 1, 4}));
}

TEST(ReferenceComponents, DirectionIsIgnored) {
  // Only backwards edges: 5 -> 4 -> ... -> 0 and 9 -> 7 <- 8; all weakly connected in two parts.
  const Csr g = csr(10, {{5, 4}, {4, 3}, {3, 2}, {2, 1}, {1, 0}, {9, 7}, {8, 7}, {6, 9}});
  EXPECT_EQ(connected_components(g), (std::vector<vertex_t>{0, 0, 0, 0, 0, 0, 6, 6, 6, 6}));
}

TEST(ReferenceComponents, PathStarCycleAndEmpty) {
  EXPECT_EQ(connected_components(csr(3, {{2, 1}, {1, 0}})), (std::vector<vertex_t>{0, 0, 0}));
  EXPECT_EQ(connected_components(csr(4, {{3, 0}, {3, 1}, {3, 2}})), (std::vector<vertex_t>{0, 0, 0, 0}));
  EXPECT_EQ(connected_components(csr(4, {{1, 2}, {2, 3}, {3, 1}})), (std::vector<vertex_t>{0, 1, 1, 1}));
  EXPECT_EQ(connected_components(csr(3, {{2, 2}})), (std::vector<vertex_t>{0, 1, 2}));
  EXPECT_TRUE(connected_components(Csr()).empty());
}

}  // namespace reference_components_test
