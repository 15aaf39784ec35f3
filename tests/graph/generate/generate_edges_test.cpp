// Both generators: determinism, slices, sizes, ranges, seeds and weights.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "courier/core/error.hpp"
#include "courier/graph/generate.hpp"
#include "courier/graph/vertex_scramble.hpp"

namespace generate_edges_test {

using namespace courier::graph;

namespace {

GeneratorOptions options_for(Generator kind, int scale, std::uint64_t seed = 1) {
  GeneratorOptions options;
  options.kind = kind;
  options.scale = scale;
  options.seed = seed;
  options.weights = true;
  return options;
}

class BothGenerators : public ::testing::TestWithParam<Generator> {};

}  // namespace

TEST_P(BothGenerators, SameSeedSameEdgesWhateverTheThreadCount) {
  GeneratorOptions options = options_for(GetParam(), 10, 42);
  options.threads = 1;
  const EdgeList one = generate(options);
  for (unsigned threads : {2u, 3u, 7u, 0u}) {
    options.threads = threads;
    const EdgeList other = generate(options);
    EXPECT_EQ(other.edges, one.edges) << threads << " threads";
    EXPECT_EQ(std::get<std::vector<std::uint32_t>>(other.weights),
              std::get<std::vector<std::uint32_t>>(one.weights));
  }
}

TEST_P(BothGenerators, RangeIsTheSliceOfTheWholeGraph) {
  const GeneratorOptions options = options_for(GetParam(), 9, 7);
  const EdgeList all = generate(options);
  const auto& all_weights = std::get<std::vector<std::uint32_t>>(all.weights);
  const edge_t m = all.edges.size();
  for (auto [first, last] : std::vector<std::pair<edge_t, edge_t>>{{0, 0}, {0, 1}, {5, 77}, {1000, 4097}, {m - 3, m}, {0, m}}) {
    const EdgeList slice = generate_range(options, first, last);
    EXPECT_EQ(slice.num_vertices, all.num_vertices);
    ASSERT_EQ(slice.edges.size(), last - first);
    EXPECT_TRUE(std::equal(slice.edges.begin(), slice.edges.end(), all.edges.begin() + first));
    const auto& w = std::get<std::vector<std::uint32_t>>(slice.weights);
    EXPECT_TRUE(std::equal(w.begin(), w.end(), all_weights.begin() + first));
  }
  EXPECT_THROW(generate_range(options, 5, 4), courier::Error);
  EXPECT_THROW(generate_range(options, 0, m + 1), courier::Error);
}

TEST_P(BothGenerators, SizesAndIdRanges) {
  for (int scale : {1, 2, 5, 11}) {
    GeneratorOptions options = options_for(GetParam(), scale);
    options.edge_factor = 3;
    options.weights = false;
    const EdgeList list = generate(options);
    EXPECT_EQ(list.num_vertices, vertex_t{1} << scale);
    EXPECT_EQ(list.edges.size(), 3u << scale);
    EXPECT_EQ(generated_edge_count(options), 3u << scale);
    EXPECT_FALSE(list.has_weights());
    for (const Edge& e : list.edges) {
      ASSERT_LT(e.src, list.num_vertices);
      ASSERT_LT(e.dst, list.num_vertices);
    }
  }
}

TEST_P(BothGenerators, DifferentSeedsDiffer) {
  const EdgeList a = generate(options_for(GetParam(), 8, 1));
  const EdgeList b = generate(options_for(GetParam(), 8, 2));
  edge_t same = 0;
  for (edge_t i = 0; i < a.edges.size(); ++i) same += a.edges[i] == b.edges[i];
  EXPECT_LT(same, a.edges.size() / 10);
  EXPECT_NE(std::get<std::vector<std::uint32_t>>(a.weights), std::get<std::vector<std::uint32_t>>(b.weights));
}

TEST_P(BothGenerators, WeightsCoverOneTo255) {
  const EdgeList list = generate(options_for(GetParam(), 12));
  const auto& w = std::get<std::vector<std::uint32_t>>(list.weights);
  ASSERT_EQ(w.size(), list.edges.size());
  EXPECT_EQ(*std::min_element(w.begin(), w.end()), 1u);
  EXPECT_EQ(*std::max_element(w.begin(), w.end()), 255u);
  double sum = 0;
  for (auto x : w) sum += x;
  EXPECT_NEAR(sum / w.size(), 128.0, 2.0);
}

INSTANTIATE_TEST_SUITE_P(Generators, BothGenerators,
                         ::testing::Values(Generator::kronecker, Generator::uniform),
                         [](const auto& info) {
                           return std::string(info.param == Generator::kronecker ? "kron" : "urand");
                         });

TEST(Generate, RejectsBadOptions) {
  GeneratorOptions options;
  options.scale = 0;
  EXPECT_THROW(generate(options), courier::InputError);
  options.scale = 41;
  EXPECT_THROW(generate(options), courier::InputError);
  options.scale = 4;
  options.edge_factor = 0;
  EXPECT_THROW(generate(options), courier::InputError);
}

TEST(VertexScramble, IsABijectionAndDependsOnTheSeed) {
  for (int scale = 1; scale <= 16; ++scale)
    for (std::uint64_t seed : {1, 2, 99}) {
      const VertexScramble scramble(scale, seed);
      const vertex_t n = vertex_t{1} << scale;
      std::vector<bool> seen(n, false);
      for (vertex_t v = 0; v < n; ++v) {
        const vertex_t s = scramble(v);
        ASSERT_LT(s, n);
        ASSERT_FALSE(seen[s]) << "scale " << scale << " seed " << seed;
        seen[s] = true;
      }
    }
  const VertexScramble a(20, 1), b(20, 2);
  int same = 0;
  for (vertex_t v = 0; v < 1000; ++v) same += a(v) == b(v);
  EXPECT_LT(same, 5);
}

}  // namespace generate_edges_test
