// relabel, random_permutation, degree_order, compact_ids.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "courier/core/error.hpp"
#include "courier/graph/transform.hpp"
#include "graph/graph_builders.hpp"

namespace transform_ids_test {

using namespace courier::graph;
using namespace courier::graph::testing;

TEST(Relabel, MapsEveryEndpointAndKeepsOrderAndWeights) {
  const EdgeList in = weighted_edge_list<std::uint32_t>(4, {{0, 1}, {3, 2}, {1, 1}}, {7, 8, 9});
  const EdgeList out = relabel(in, {2, 0, 3, 1});
  EXPECT_EQ(out.num_vertices, 4u);
  EXPECT_EQ(out.edges, (std::vector<Edge>{{2, 0}, {1, 3}, {0, 0}}));
  EXPECT_EQ(std::get<std::vector<std::uint32_t>>(out.weights), (std::vector<std::uint32_t>{7, 8, 9}));
}

TEST(Relabel, RejectsWhatIsNotAPermutation) {
  const EdgeList in = edge_list(3, {{0, 1}});
  EXPECT_THROW(relabel(in, {0, 1}), courier::Error);
  EXPECT_THROW(relabel(in, {0, 1, 1}), courier::Error);
  EXPECT_THROW(relabel(in, {0, 1, 3}), courier::Error);
}

TEST(RandomPermutation, IsAPermutationFixedBySeed) {
  const auto a = random_permutation(1000, 5);
  auto sorted = a;
  std::sort(sorted.begin(), sorted.end());
  std::vector<vertex_t> identity(1000);
  std::iota(identity.begin(), identity.end(), vertex_t{0});
  EXPECT_EQ(sorted, identity);
  EXPECT_NE(a, identity);
  EXPECT_EQ(random_permutation(1000, 5), a);
  EXPECT_NE(random_permutation(1000, 6), a);
  EXPECT_TRUE(random_permutation(0, 1).empty());
  EXPECT_EQ(random_permutation(1, 1), (std::vector<vertex_t>{0}));
  // Every element lands everywhere about equally often (a biased shuffle would not).
  std::vector<int> zero_lands_at(4, 0);
  for (std::uint64_t seed = 0; seed < 4000; ++seed) ++zero_lands_at[random_permutation(4, seed)[0]];
  for (int count : zero_lands_at) EXPECT_NEAR(count, 1000, 120);
}

TEST(DegreeOrder, HighestOutDegreeFirstTiesByOldId) {
  // Out-degrees: 0:1, 1:3, 2:0, 3:3, 4:1.
  const EdgeList in = edge_list(5, {{0, 1}, {1, 0}, {1, 2}, {1, 3}, {3, 0}, {3, 1}, {3, 4}, {4, 0}});
  const auto new_id = degree_order(in);
  EXPECT_EQ(new_id, (std::vector<vertex_t>{2, 0, 4, 1, 3}));
  const EdgeList out = relabel(in, new_id);
  std::vector<int> degree(5, 0);
  for (const Edge& e : out.edges) ++degree[e.src];
  EXPECT_TRUE(std::is_sorted(degree.rbegin(), degree.rend()));
}

TEST(CompactIds, DropsUntouchedIdsKeepsOrderAndWeights) {
  const EdgeList in = weighted_edge_list<float>(10, {{7, 3}, {3, 9}, {9, 9}}, {0.5f, 1.5f, 2.5f});
  const Compacted out = compact_ids(in);
  EXPECT_EQ(out.original_id, (std::vector<vertex_t>{3, 7, 9}));
  EXPECT_EQ(out.edges.num_vertices, 3u);
  EXPECT_EQ(out.edges.edges, (std::vector<Edge>{{1, 0}, {0, 2}, {2, 2}}));
  EXPECT_EQ(std::get<std::vector<float>>(out.edges.weights), (std::vector<float>{0.5f, 1.5f, 2.5f}));
  const Compacted empty = compact_ids(edge_list(5, {}));
  EXPECT_EQ(empty.edges.num_vertices, 0u);
  EXPECT_TRUE(empty.original_id.empty());
}

TEST(CompactIds, IdsScatteredOverAHugeRange) {
  const vertex_t big = vertex_t{1} << 40;
  const Compacted out = compact_ids(edge_list(big, {{big - 1, 12}, {12, 1'000'000'007}, {big - 1, big - 1}}));
  EXPECT_EQ(out.original_id, (std::vector<vertex_t>{12, 1'000'000'007, big - 1}));
  EXPECT_EQ(out.edges.num_vertices, 3u);
  EXPECT_EQ(out.edges.edges, (std::vector<Edge>{{2, 0}, {0, 1}, {2, 2}}));
}

}  // namespace transform_ids_test
