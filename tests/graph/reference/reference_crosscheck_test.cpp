// The references against each other and against brute force on random graphs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "courier/graph/reference.hpp"
#include "courier/graph/transform.hpp"
#include "graph/graph_builders.hpp"

namespace reference_crosscheck_test {

using namespace courier::graph;
using namespace courier::graph::testing;
namespace ref = courier::graph::reference;

namespace {

// The same graph with every weight 1.
Csr with_unit_weights(const Csr& g) {
  return Csr(courier::Buffer<edge_t>(to_vector(g.offsets())), courier::Buffer<vertex_t>(to_vector(g.targets())),
             courier::Buffer<std::uint32_t>(std::vector<std::uint32_t>(g.num_edges(), 1)));
}

Csr symmetric(const Csr& g) { return build_csr(symmetrize(to_edge_list(g))); }

std::vector<std::vector<bool>> adjacency_matrix(const Csr& g) {
  std::vector<std::vector<bool>> a(g.num_vertices(), std::vector<bool>(g.num_vertices(), false));
  for (vertex_t u = 0; u < g.num_vertices(); ++u)
    for (vertex_t v : g.neighbors(u))
      if (u != v) a[u][v] = a[v][u] = true;
  return a;
}

struct Case {
  Generator kind;
  int scale;
  int edge_factor;
};
std::string name_of(const ::testing::TestParamInfo<Case>& info) {
  return std::string(info.param.kind == Generator::kronecker ? "kron" : "urand") + std::to_string(info.param.scale) +
         "ef" + std::to_string(info.param.edge_factor);
}

class CrossCheck : public ::testing::TestWithParam<Case> {
 protected:
  Csr graph(bool weights = false) const {
    return generated_csr(GetParam().kind, GetParam().scale, 3, weights, GetParam().edge_factor);
  }
};

}  // namespace

TEST_P(CrossCheck, BfsLevelsAreUnitWeightDistancesAndParentsAreEdges) {
  const Csr g = graph();
  for (vertex_t source : {vertex_t{0}, g.num_vertices() / 2, g.num_vertices() - 1}) {
    const auto b = ref::bfs(g, source);
    EXPECT_EQ(b.level, ref::sssp(with_unit_weights(g), source).dist_int);
    for (vertex_t v = 0; v < g.num_vertices(); ++v) {
      if (b.level[v] == ref::kUnreached || v == source) continue;
      const vertex_t p = b.parent[v];
      ASSERT_EQ(b.level[p] + 1, b.level[v]);
      const auto row = g.neighbors(p);
      ASSERT_NE(std::find(row.begin(), row.end(), v), row.end());
    }
  }
}

TEST_P(CrossCheck, DijkstraMatchesBellmanFord) {
  const Csr g = graph(true);
  const auto w = g.weights_as<std::uint32_t>();
  const vertex_t n = g.num_vertices();
  std::vector<std::uint64_t> dist(n, ref::kUnreached);
  dist[1] = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (vertex_t u = 0; u < n; ++u)
      if (dist[u] != ref::kUnreached)
        for (edge_t k = g.offsets()[u]; k < g.offsets()[u + 1]; ++k)
          if (dist[u] + w[k] < dist[g.targets()[k]]) {
            dist[g.targets()[k]] = dist[u] + w[k];
            changed = true;
          }
  }
  EXPECT_EQ(ref::sssp(g, 1).dist_int, dist);
}

TEST_P(CrossCheck, ComponentsAreWhatUndirectedBfsReaches) {
  const Csr g = graph();
  const auto label = ref::connected_components(g);
  const Csr both = symmetric(g);
  std::vector<bool> checked(g.num_vertices(), false);
  std::size_t components = 0;
  for (vertex_t v = 0; v < g.num_vertices(); ++v) {
    if (checked[v]) continue;
    ++components;
    ASSERT_EQ(label[v], v) << "the first vertex of a component is its smallest";
    const auto reach = ref::bfs(both, v);
    for (vertex_t u = 0; u < g.num_vertices(); ++u) {
      ASSERT_EQ(label[u] == v, reach.level[u] != ref::kUnreached);
      if (label[u] == v) checked[u] = true;
    }
  }
  for (vertex_t u = 0; u < g.num_vertices(); ++u)
    for (vertex_t v : g.neighbors(u)) ASSERT_EQ(label[u], label[v]);
  if (GetParam().edge_factor == 1) {
    EXPECT_GT(components, 1u);
  }
}

TEST_P(CrossCheck, TrianglesMatchBruteForce) {
  const Csr g = graph();
  const auto t = ref::triangles(g);
  EXPECT_EQ(std::accumulate(t.per_vertex.begin(), t.per_vertex.end(), std::uint64_t{0}), 3 * t.total);
  if (g.num_vertices() > 512) return;
  const auto a = adjacency_matrix(g);
  const vertex_t n = g.num_vertices();
  std::vector<std::uint64_t> per_vertex(n, 0);
  std::uint64_t total = 0;
  for (vertex_t x = 0; x < n; ++x)
    for (vertex_t y = x + 1; y < n; ++y)
      if (a[x][y])
        for (vertex_t z = y + 1; z < n; ++z)
          if (a[x][z] && a[y][z]) {
            ++total;
            ++per_vertex[x], ++per_vertex[y], ++per_vertex[z];
          }
  EXPECT_EQ(t.total, total);
  EXPECT_EQ(t.per_vertex, per_vertex);
  if (GetParam().edge_factor >= 8) {
    EXPECT_GT(total, 0u);
  }
}

TEST_P(CrossCheck, KcoreMatchesABruteForcePeel) {
  const Csr g = graph();
  const Csr u = simple_undirected(g);
  const vertex_t n = u.num_vertices();
  // core[v] is the largest k for which v survives repeatedly deleting vertices of degree < k.
  std::vector<std::uint32_t> core(n, 0);
  for (std::uint32_t k = 1;; ++k) {
    std::vector<bool> alive(n, true);
    for (bool removed = true; removed;) {
      removed = false;
      for (vertex_t v = 0; v < n; ++v) {
        if (!alive[v]) continue;
        std::uint32_t degree = 0;
        for (vertex_t w : u.neighbors(v)) degree += alive[w];
        if (degree < k) alive[v] = false, removed = true;
      }
    }
    if (std::none_of(alive.begin(), alive.end(), [](bool b) { return b; })) break;
    for (vertex_t v = 0; v < n; ++v)
      if (alive[v]) core[v] = k;
  }
  EXPECT_EQ(ref::kcore(g), core);
  EXPECT_GT(*std::max_element(core.begin(), core.end()), 1u);
}

TEST_P(CrossCheck, PagerankSumsToOneAndIsAFixedPoint) {
  const Csr g = graph();
  const auto r = ref::pagerank(g);
  ASSERT_TRUE(r.converged);
  EXPECT_LT(r.last_change, 1e-9);
  EXPECT_NEAR(std::accumulate(r.rank.begin(), r.rank.end(), 0.0), 1.0, 1e-9);
  // One more step by hand changes almost nothing.
  const vertex_t n = g.num_vertices();
  std::vector<double> next(n, 0);
  double dangling = 0;
  for (vertex_t u = 0; u < n; ++u) {
    if (g.degree(u) == 0) dangling += r.rank[u];
    for (vertex_t v : g.neighbors(u)) next[v] += r.rank[u] / g.degree(u);
  }
  double change = 0;
  for (vertex_t v = 0; v < n; ++v) change += std::abs(0.15 / n + 0.85 * (dangling / n + next[v]) - r.rank[v]);
  EXPECT_LT(change, 1e-9);
}

INSTANTIATE_TEST_SUITE_P(RandomGraphs, CrossCheck,
                         ::testing::Values(Case{Generator::uniform, 8, 1}, Case{Generator::uniform, 8, 16},
                                           Case{Generator::kronecker, 8, 8}, Case{Generator::uniform, 10, 4},
                                           Case{Generator::kronecker, 10, 16}),
                         name_of);

}  // namespace reference_crosscheck_test
