#include "courier/graph/stats.hpp"

#include <gtest/gtest.h>

namespace stats_test {

using namespace courier::graph;

TEST(GraphStats, CountsLoopsDuplicatesIsolatedAndComponents) {
  EdgeList list;
  list.num_vertices = 7;  // 5 and 6 are isolated
  list.edges = {{0, 1}, {0, 1}, {1, 2}, {2, 2}, {3, 4}};
  const GraphStats s = describe(build_csr(list));
  EXPECT_EQ(s.vertices, 7u);
  EXPECT_EQ(s.edges, 5u);
  EXPECT_EQ(s.self_loops, 1u);
  EXPECT_EQ(s.duplicate_edges, 1u);
  EXPECT_EQ(s.isolated_vertices, 2u);
  EXPECT_EQ(s.components, 4u);  // {0,1,2} {3,4} {5} {6}
  EXPECT_EQ(s.largest_component, 3u);
  EXPECT_EQ(s.min_out_degree, 0u);
  EXPECT_EQ(s.max_out_degree, 2u);
  EXPECT_DOUBLE_EQ(s.mean_out_degree, 5.0 / 7.0);
}

TEST(GraphStats, EmptyGraph) {
  const GraphStats s = describe(build_csr(EdgeList{}));
  EXPECT_EQ(s.vertices, 0u);
  EXPECT_EQ(s.components, 0u);
}

}  // namespace stats_test
