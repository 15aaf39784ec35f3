// transpose and simple_undirected.
#include <gtest/gtest.h>

#include "courier/graph/transform.hpp"
#include "graph/graph_builders.hpp"

namespace transform_csr_test {

using namespace courier::graph;
using namespace courier::graph::testing;

TEST(Transpose, InEdgesSortedBySourceWithWeights) {
  const Csr g = weighted_csr<std::uint32_t>(4, {{0, 1}, {0, 2}, {2, 1}, {3, 1}, {1, 1}, {2, 0}}, {10, 20, 30, 40, 50, 60});
  const Csr t = transpose(g);
  ASSERT_EQ(t.num_vertices(), 4u);
  ASSERT_EQ(t.num_edges(), 6u);
  EXPECT_EQ(to_vector(t.neighbors(0)), (std::vector<vertex_t>{2}));
  EXPECT_EQ(to_vector(t.neighbors(1)), (std::vector<vertex_t>{0, 1, 2, 3}));
  EXPECT_EQ(to_vector(t.neighbors(2)), (std::vector<vertex_t>{0}));
  EXPECT_EQ(t.degree(3), 0u);
  EXPECT_EQ(to_vector(t.weights_as<std::uint32_t>(0)), (std::vector<std::uint32_t>{60}));
  EXPECT_EQ(to_vector(t.weights_as<std::uint32_t>(1)), (std::vector<std::uint32_t>{10, 50, 30, 40}));
  EXPECT_EQ(to_vector(t.weights_as<std::uint32_t>(2)), (std::vector<std::uint32_t>{20}));
}

TEST(Transpose, TwiceGivesTheGraphBack) {
  const Csr g = weighted_csr<float>(3, {{0, 2}, {2, 1}, {0, 1}, {0, 2}}, {1.f, 2.f, 3.f, 4.f});
  const Csr back = transpose(transpose(g));
  EXPECT_EQ(to_vector(back.offsets()), to_vector(g.offsets()));
  EXPECT_EQ(to_vector(back.targets()), to_vector(g.targets()));
  EXPECT_EQ(to_vector(back.weights_as<float>()), to_vector(g.weights_as<float>()));
  EXPECT_FALSE(transpose(csr(2, {{0, 1}})).has_weights());
  EXPECT_EQ(transpose(Csr()).num_vertices(), 0u);
}

TEST(SimpleUndirected, BothDirectionsNoLoopsNoDuplicates) {
  const Csr g = weighted_csr<std::uint32_t>(5, {{0, 1}, {1, 0}, {0, 1}, {2, 2}, {3, 0}, {2, 3}}, {1, 2, 3, 4, 5, 6});
  const Csr u = simple_undirected(g);
  ASSERT_EQ(u.num_vertices(), 5u);
  EXPECT_FALSE(u.has_weights());
  EXPECT_EQ(to_vector(u.neighbors(0)), (std::vector<vertex_t>{1, 3}));
  EXPECT_EQ(to_vector(u.neighbors(1)), (std::vector<vertex_t>{0}));
  EXPECT_EQ(to_vector(u.neighbors(2)), (std::vector<vertex_t>{3}));
  EXPECT_EQ(to_vector(u.neighbors(3)), (std::vector<vertex_t>{0, 2}));
  EXPECT_EQ(u.degree(4), 0u);
  EXPECT_EQ(u.num_edges(), 6u);
}

TEST(SimpleUndirected, AcceptsRowsThatAreNotSorted) {
  // A Csr made directly (as a mapped file may be) need not have sorted rows.
  const Csr g(courier::Buffer<edge_t>(std::vector<edge_t>{0, 3, 3, 3}),
              courier::Buffer<vertex_t>(std::vector<vertex_t>{2, 1, 2}));
  const Csr u = simple_undirected(g);
  EXPECT_EQ(to_vector(u.neighbors(0)), (std::vector<vertex_t>{1, 2}));
  EXPECT_EQ(to_vector(u.neighbors(1)), (std::vector<vertex_t>{0}));
  EXPECT_EQ(to_vector(u.neighbors(2)), (std::vector<vertex_t>{0}));
}

}  // namespace transform_csr_test
