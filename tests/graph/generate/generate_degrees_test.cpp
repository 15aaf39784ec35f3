// The degree distributions: Kronecker's is skewed with its hubs spread over the ids, uniform's is not.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "courier/graph/generate.hpp"

namespace generate_degrees_test {

using namespace courier::graph;

namespace {

// Degree counting both endpoints, as in the undirected graph Graph500 means.
std::vector<std::uint64_t> degrees(const EdgeList& list) {
  std::vector<std::uint64_t> degree(list.num_vertices, 0);
  for (const Edge& e : list.edges) {
    ++degree[e.src];
    ++degree[e.dst];
  }
  return degree;
}

struct Shape {
  double mean = 0;
  std::uint64_t max = 0;
  double share_at_most_one = 0;  // of vertices with degree 0 or 1
};

Shape shape_of(const std::vector<std::uint64_t>& degree) {
  Shape s;
  s.mean = std::accumulate(degree.begin(), degree.end(), 0.0) / degree.size();
  s.max = *std::max_element(degree.begin(), degree.end());
  s.share_at_most_one =
      std::count_if(degree.begin(), degree.end(), [](auto d) { return d <= 1; }) / double(degree.size());
  return s;
}

EdgeList scale14(Generator kind) {
  GeneratorOptions options;
  options.kind = kind;
  options.scale = 14;
  return generate(options);
}

}  // namespace

TEST(GenerateDegrees, KroneckerIsSkewed) {
  const auto degree = degrees(scale14(Generator::kronecker));
  const Shape s = shape_of(degree);
  EXPECT_DOUBLE_EQ(s.mean, 32.0);
  EXPECT_GT(s.max, 50 * s.mean);
  EXPECT_GT(s.share_at_most_one, 0.25);
}

TEST(GenerateDegrees, KroneckerHubsAreSpreadOverTheIds) {
  const auto degree = degrees(scale14(Generator::kronecker));
  const vertex_t n = degree.size();
  // Without scrambling the 64 biggest hubs would all be ids with few one bits, mostly below n/8.
  std::vector<vertex_t> ids(n);
  std::iota(ids.begin(), ids.end(), vertex_t{0});
  std::partial_sort(ids.begin(), ids.begin() + 64, ids.end(),
                    [&](vertex_t a, vertex_t b) { return degree[a] > degree[b]; });
  const auto top = std::vector<vertex_t>(ids.begin(), ids.begin() + 64);
  EXPECT_NE(top[0], 0u);
  const auto in_lowest_eighth = std::count_if(top.begin(), top.end(), [&](vertex_t v) { return v < n / 8; });
  EXPECT_LT(in_lowest_eighth, 24);
  const double mean_id = std::accumulate(top.begin(), top.end(), 0.0) / top.size();
  EXPECT_GT(mean_id, n / 4.0);
  EXPECT_LT(mean_id, 3 * n / 4.0);
}

TEST(GenerateDegrees, KroneckerFollowsTheGraph500Probabilities) {
  // Scrambling renames vertices but keeps these, so they check A, B, C, D through the scramble:
  // the biggest hub is the all-zero id, an endpoint of it with probability (A+B)^scale as a source
  // and (A+C)^scale as a target, and a self loop needs equal bits at every level, (A+D)^scale.
  const EdgeList list = scale14(Generator::kronecker);
  std::vector<std::uint64_t> out(list.num_vertices, 0), in(list.num_vertices, 0);
  std::uint64_t loops = 0;
  for (const Edge& e : list.edges) {
    ++out[e.src];
    ++in[e.dst];
    loops += e.src == e.dst;
  }
  const double m = list.edges.size();
  const auto hub = std::max_element(out.begin(), out.end()) - out.begin();
  EXPECT_EQ(hub, std::max_element(in.begin(), in.end()) - in.begin());
  EXPECT_NEAR(out[hub], m * std::pow(0.57 + 0.19, 14), 0.03 * m * std::pow(0.76, 14));
  EXPECT_NEAR(in[hub], m * std::pow(0.57 + 0.19, 14), 0.03 * m * std::pow(0.76, 14));
  EXPECT_NEAR(loops, m * std::pow(0.57 + 0.05, 14), 0.15 * m * std::pow(0.62, 14));
}

TEST(GenerateDegrees, UniformIsNotSkewed) {
  const Shape s = shape_of(degrees(scale14(Generator::uniform)));
  EXPECT_DOUBLE_EQ(s.mean, 32.0);
  EXPECT_LT(s.max, 2 * s.mean);
  EXPECT_LT(s.share_at_most_one, 0.001);
}

}  // namespace generate_degrees_test
