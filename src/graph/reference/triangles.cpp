#include "courier/graph/reference/triangles.hpp"

#include "courier/graph/transform.hpp"

namespace courier::graph::reference {

namespace {

// True if a comes before b when vertices are ordered by (degree, id): each edge is kept only from
// its lower to its higher end, so every vertex keeps at most about sqrt(2m) neighbours.
bool ranks_below(const Csr& g, vertex_t a, vertex_t b) {
  const edge_t da = g.degree(a), db = g.degree(b);
  return da < db || (da == db && a < b);
}

}  // namespace

TriangleResult triangles(const Csr& graph) {
  const Csr undirected = simple_undirected(graph);
  const vertex_t n = undirected.num_vertices();

  // Oriented rows, still sorted by id so they can be intersected by merging.
  std::vector<edge_t> offsets(n + 1, 0);
  std::vector<vertex_t> higher;
  higher.reserve(undirected.num_edges() / 2);
  for (vertex_t u = 0; u < n; ++u) {
    for (vertex_t v : undirected.neighbors(u))
      if (ranks_below(undirected, u, v)) higher.push_back(v);
    offsets[u + 1] = higher.size();
  }
  auto row = [&](vertex_t v) {
    return std::span<const vertex_t>(higher.data() + offsets[v], offsets[v + 1] - offsets[v]);
  };

  // A triangle u < v < w (by rank) is found once: at u, through its edge to v, as w in both rows.
  TriangleResult result;
  result.per_vertex.assign(n, 0);
  for (vertex_t u = 0; u < n; ++u)
    for (vertex_t v : row(u)) {
      const auto a = row(u), b = row(v);
      std::size_t i = 0, j = 0;
      while (i < a.size() && j < b.size()) {
        if (a[i] < b[j]) {
          ++i;
        } else if (b[j] < a[i]) {
          ++j;
        } else {
          ++result.per_vertex[u];
          ++result.per_vertex[v];
          ++result.per_vertex[a[i]];
          ++result.total;
          ++i;
          ++j;
        }
      }
    }
  return result;
}

}  // namespace courier::graph::reference
