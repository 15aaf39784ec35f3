// symmetrize, remove_self_loops, remove_duplicate_edges on small hand-made lists.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "courier/core/error.hpp"
#include "courier/graph/transform.hpp"
#include "graph/graph_builders.hpp"

namespace transform_edges_test {

using namespace courier::graph;
using namespace courier::graph::testing;

namespace {
const std::vector<std::uint32_t>& u32(const EdgeList& list) {
  return std::get<std::vector<std::uint32_t>>(list.weights);
}
const std::vector<float>& f32(const EdgeList& list) { return std::get<std::vector<float>>(list.weights); }
}  // namespace

TEST(Symmetrize, AppendsReversesOfNonLoopsWithTheirWeights) {
  const EdgeList in = weighted_edge_list<std::uint32_t>(4, {{0, 1}, {2, 2}, {3, 1}}, {5, 6, 7});
  const EdgeList out = symmetrize(in);
  EXPECT_EQ(out.num_vertices, 4u);
  EXPECT_EQ(out.edges, (std::vector<Edge>{{0, 1}, {2, 2}, {3, 1}, {1, 0}, {1, 3}}));
  EXPECT_EQ(u32(out), (std::vector<std::uint32_t>{5, 6, 7, 5, 7}));
}

TEST(Symmetrize, UnweightedAndEmpty) {
  const EdgeList out = symmetrize(edge_list(3, {{0, 2}}));
  EXPECT_EQ(out.edges, (std::vector<Edge>{{0, 2}, {2, 0}}));
  EXPECT_FALSE(out.has_weights());
  EXPECT_TRUE(symmetrize(EdgeList{}).edges.empty());
}

TEST(RemoveSelfLoops, KeepsTheOthersInOrder) {
  const EdgeList in = weighted_edge_list<float>(3, {{1, 1}, {0, 1}, {2, 2}, {2, 0}, {0, 0}}, {1.5f, 2.5f, 3.5f, 4.5f, 5.5f});
  const EdgeList out = remove_self_loops(in);
  EXPECT_EQ(out.edges, (std::vector<Edge>{{0, 1}, {2, 0}}));
  EXPECT_EQ(f32(out), (std::vector<float>{2.5f, 4.5f}));
  EXPECT_EQ(out.num_vertices, 3u);
}

TEST(RemoveDuplicateEdges, KeepsTheSmallestWeightAndSorts) {
  const EdgeList in = weighted_edge_list<std::uint32_t>(
      4, {{2, 1}, {0, 3}, {2, 1}, {0, 1}, {0, 3}, {2, 1}, {1, 2}, {3, 3}, {3, 3}}, {9, 4, 2, 8, 6, 5, 1, 7, 3});
  const EdgeList out = remove_duplicate_edges(in);
  EXPECT_EQ(out.edges, (std::vector<Edge>{{0, 1}, {0, 3}, {1, 2}, {2, 1}, {3, 3}}));
  EXPECT_EQ(u32(out), (std::vector<std::uint32_t>{8, 4, 1, 2, 3}));
}

TEST(RemoveDuplicateEdges, FloatWeightsAndNoWeights) {
  const EdgeList weighted = remove_duplicate_edges(weighted_edge_list<float>(2, {{1, 0}, {1, 0}, {0, 1}}, {0.5f, 0.25f, 2.0f}));
  EXPECT_EQ(weighted.edges, (std::vector<Edge>{{0, 1}, {1, 0}}));
  EXPECT_EQ(f32(weighted), (std::vector<float>{2.0f, 0.25f}));
  const EdgeList plain = remove_duplicate_edges(edge_list(3, {{2, 0}, {2, 0}, {1, 2}, {2, 0}}));
  EXPECT_EQ(plain.edges, (std::vector<Edge>{{1, 2}, {2, 0}}));
  EXPECT_FALSE(plain.has_weights());
}

TEST(RemoveDuplicateEdges, NegativeFloatsAndNaN) {
  const float nan = std::nanf("");
  const EdgeList out = remove_duplicate_edges(weighted_edge_list<float>(
      3, {{0, 1}, {0, 1}, {0, 1}, {1, 2}, {1, 2}, {2, 0}, {2, 0}, {2, 2}},
      {nan, -0.5f, 3.0f, -1.5f, -7.25f, nan, 0.0f, -0.0f}));
  EXPECT_EQ(out.edges, (std::vector<Edge>{{0, 1}, {1, 2}, {2, 0}, {2, 2}}));
  ASSERT_EQ(f32(out).size(), 4u);
  EXPECT_EQ(f32(out)[0], -0.5f);
  EXPECT_EQ(f32(out)[1], -7.25f);
  EXPECT_EQ(f32(out)[2], 0.0f);  // a number beats NaN
  EXPECT_TRUE(std::signbit(f32(out)[3]));
}

TEST(RemoveDuplicateEdges, FewEdgesOverAHugeIdRange) {
  // The comparison-sort path: counting arrays over 2^40 ids would not fit.
  const vertex_t big = vertex_t{1} << 40;
  const EdgeList out = remove_duplicate_edges(
      weighted_edge_list<std::uint32_t>(big, {{big - 1, 3}, {5, big - 2}, {big - 1, 3}, {5, 7}}, {4, 3, 2, 1}));
  EXPECT_EQ(out.edges, (std::vector<Edge>{{5, 7}, {5, big - 2}, {big - 1, 3}}));
  EXPECT_EQ(u32(out), (std::vector<std::uint32_t>{1, 3, 2}));
  const EdgeList floats = remove_duplicate_edges(weighted_edge_list<float>(big, {{big - 1, 3}, {big - 1, 3}}, {2.5f, -1.0f}));
  EXPECT_EQ(floats.edges, (std::vector<Edge>{{big - 1, 3}}));
  EXPECT_EQ(f32(floats), (std::vector<float>{-1.0f}));
}

TEST(RemoveDuplicateEdges, MatchesASortUniqueOnARandomGraph) {
  GeneratorOptions options;
  options.scale = 6;  // 1024 edges over 64 vertices: many duplicates
  options.weights = true;
  const EdgeList in = generate(options);
  const EdgeList out = remove_duplicate_edges(in);
  std::map<Edge, std::uint32_t> expected;
  for (std::size_t i = 0; i < in.edges.size(); ++i) {
    auto [it, fresh] = expected.emplace(in.edges[i], u32(in)[i]);
    if (!fresh) it->second = std::min(it->second, u32(in)[i]);
  }
  ASSERT_EQ(out.edges.size(), expected.size());
  ASSERT_LT(out.edges.size(), in.edges.size());
  std::size_t i = 0;
  for (const auto& [edge, weight] : expected) {
    EXPECT_EQ(out.edges[i], edge);
    EXPECT_EQ(u32(out)[i], weight);
    ++i;
  }
}

TEST(EdgeTransforms, RejectIdsOutsideTheGraph) {
  const EdgeList bad = edge_list(2, {{0, 2}});
  EXPECT_THROW(symmetrize(bad), courier::Error);
  EXPECT_THROW(remove_self_loops(bad), courier::Error);
  EXPECT_THROW(remove_duplicate_edges(bad), courier::Error);
  EdgeList mismatched = edge_list(2, {{0, 1}});
  mismatched.weights = std::vector<std::uint32_t>{1, 2};
  EXPECT_THROW(remove_duplicate_edges(mismatched), courier::Error);
}

}  // namespace transform_edges_test
