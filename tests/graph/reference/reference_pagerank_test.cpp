#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "courier/graph/reference.hpp"
#include "graph/graph_builders.hpp"

namespace reference_pagerank_test {

using namespace courier::graph;
using namespace courier::graph::testing;
using courier::graph::reference::pagerank;
using courier::graph::reference::PagerankOptions;

namespace {

double sum(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

// The largest violation of the PageRank equation r = (1-d)/n + d (dangling/n + sum of shares in).
double fixed_point_residual(const Csr& g, const std::vector<double>& r, double d = 0.85) {
  const vertex_t n = g.num_vertices();
  std::vector<double> incoming(n, 0);
  double dangling = 0;
  for (vertex_t u = 0; u < n; ++u) {
    if (g.degree(u) == 0) dangling += r[u];
    for (vertex_t v : g.neighbors(u)) incoming[v] += r[u] / g.degree(u);
  }
  double worst = 0;
  for (vertex_t v = 0; v < n; ++v)
    worst = std::max(worst, std::abs(r[v] - ((1 - d) / n + d * (dangling / n + incoming[v]))));
  return worst;
}

}  // namespace

TEST(ReferencePagerank, CycleIsUniformAtOnce) {
  const Csr cycle = csr(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}});
  const auto r = pagerank(cycle);
  for (double x : r.rank) EXPECT_DOUBLE_EQ(x, 0.2);
  EXPECT_TRUE(r.converged);
  EXPECT_EQ(r.iterations, 1u);
  EXPECT_LT(r.last_change, 1e-15);
}

TEST(ReferencePagerank, DanglingVertexHasAClosedForm) {
  // 0 -> 1 and 1 dangles: r0 = (1-d)/2 + d r1/2 with r0 + r1 = 1 gives r0 = 1/(2+d).
  const double d = 0.85;
  const auto r = pagerank(csr(2, {{0, 1}}));
  ASSERT_TRUE(r.converged);
  EXPECT_NEAR(r.rank[0], 1 / (2 + d), 1e-9);
  EXPECT_NEAR(r.rank[1], (1 + d) / (2 + d), 1e-9);
  EXPECT_LT(r.last_change, 1e-9);
  EXPECT_GT(r.iterations, 10u);
}

TEST(ReferencePagerank, StarOfLeavesPointingInward) {
  // Leaves (1..k) point to the dangling centre 0. With c the centre's rank and l a leaf's:
  // l = (1-d)/n + d c/n and c = l + d k l, so c = (1 + d k) l and c + k l = 1.
  const double d = 0.85, k = 4;
  const auto r = pagerank(csr(5, {{1, 0}, {2, 0}, {3, 0}, {4, 0}}));
  const double leaf = 1 / (1 + d * k + k);
  EXPECT_NEAR(r.rank[0], (1 + d * k) * leaf, 1e-9);
  for (int v = 1; v <= 4; ++v) EXPECT_NEAR(r.rank[v], leaf, 1e-9);
  EXPECT_NEAR(sum(r.rank), 1.0, 1e-12);
}

TEST(ReferencePagerank, DirectedGraphSatisfiesTheEquationAndFollowsEdges) {
  const Csr g = csr(5, {{0, 1}, {1, 2}, {2, 0}, {2, 1}, {3, 2}, {3, 3}});  // 4 isolated
  const auto r = pagerank(g);
  ASSERT_TRUE(r.converged);
  EXPECT_LT(r.last_change, 1e-9);
  EXPECT_NEAR(sum(r.rank), 1.0, 1e-12);
  EXPECT_LT(fixed_point_residual(g, r.rank), 1e-9);
  EXPECT_GT(r.rank[1], r.rank[0]);  // 1 gets rank from 0 and 2, 0 only from 2
  EXPECT_GT(r.rank[3], r.rank[4]);  // 3 keeps half its rank through its loop; 4 only teleports
}

TEST(ReferencePagerank, NoEdgesIsUniformAndEmptyIsEmpty) {
  const auto r = pagerank(csr(4, {}));
  for (double x : r.rank) EXPECT_DOUBLE_EQ(x, 0.25);
  EXPECT_TRUE(r.converged);
  const auto empty = pagerank(Csr());
  EXPECT_TRUE(empty.rank.empty());
  EXPECT_TRUE(empty.converged);
  EXPECT_EQ(empty.iterations, 0u);
}

TEST(ReferencePagerank, StopsAtTheIterationLimit) {
  PagerankOptions options;
  options.max_iterations = 3;
  const auto r = pagerank(csr(2, {{0, 1}}), options);
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.iterations, 3u);
  EXPECT_GT(r.last_change, 1e-9);
  EXPECT_NEAR(sum(r.rank), 1.0, 1e-12);
}

}  // namespace reference_pagerank_test
