#include "courier/graph/csr.hpp"

#include <gtest/gtest.h>

#include "courier/core/error.hpp"

namespace csr_test {

using namespace courier::graph;

TEST(Csr, BuildsSortedRowsWithWeightsAlongside) {
  EdgeList list;
  list.num_vertices = 4;
  list.edges = {{2, 1}, {0, 3}, {0, 1}, {2, 0}, {0, 2}};
  list.weights = std::vector<std::uint32_t>{21, 3, 1, 20, 2};
  const Csr csr = build_csr(list);
  ASSERT_EQ(csr.num_vertices(), 4u);
  ASSERT_EQ(csr.num_edges(), 5u);
  EXPECT_EQ(std::vector<vertex_t>(csr.neighbors(0).begin(), csr.neighbors(0).end()),
            (std::vector<vertex_t>{1, 2, 3}));
  EXPECT_EQ(csr.degree(1), 0u);
  EXPECT_EQ(std::vector<std::uint32_t>(csr.weights_as<std::uint32_t>(2).begin(),
                                       csr.weights_as<std::uint32_t>(2).end()),
            (std::vector<std::uint32_t>{20, 21}));
  EXPECT_THROW((void)csr.weights_as<float>(), courier::Error);
  const EdgeList back = to_edge_list(csr);
  EXPECT_EQ(back.edges.size(), 5u);
  EXPECT_EQ(back.weight_type(), WeightType::u32);
}

TEST(Csr, EmptyGraph) {
  const Csr csr = build_csr(EdgeList{});
  EXPECT_EQ(csr.num_vertices(), 0u);
  EXPECT_EQ(csr.num_edges(), 0u);
}

TEST(Csr, RejectsEdgesOutsideTheVertexRange) {
  EdgeList list;
  list.num_vertices = 2;
  list.edges = {{0, 2}};
  EXPECT_THROW(build_csr(list), courier::Error);
}

}  // namespace csr_test
