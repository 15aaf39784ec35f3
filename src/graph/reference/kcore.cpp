#include "courier/graph/reference/kcore.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

#include "courier/core/cancel.hpp"
#include "courier/graph/transform.hpp"

namespace courier::graph::reference {

// Batagelj and Zaversnik's O(m) peel: vertices sit in an array sorted by current degree, with
// bucket_start[d] the first position of degree d. Taking vertices in that order, each neighbour u
// of higher degree moves to the front of its bucket, the bucket boundary moves past it, and its
// degree drops by one; a vertex's degree when it is taken is its core number.
std::vector<std::uint32_t> kcore(const Csr& graph) {
  const Csr g = simple_undirected(graph);
  const vertex_t n = g.num_vertices();
  std::vector<edge_t> degree(n);
  edge_t max_degree = 0;
  for (vertex_t v = 0; v < n; ++v) max_degree = std::max(max_degree, degree[v] = g.degree(v));

  std::vector<vertex_t> bucket_start(max_degree + 2, 0);
  for (vertex_t v = 0; v < n; ++v) ++bucket_start[degree[v] + 1];
  std::partial_sum(bucket_start.begin(), bucket_start.end(), bucket_start.begin());
  std::vector<vertex_t> order(n), position(n);
  {
    std::vector<vertex_t> next(bucket_start.begin(), bucket_start.end() - 1);
    for (vertex_t v = 0; v < n; ++v) {
      position[v] = next[degree[v]]++;
      order[position[v]] = v;
    }
  }

  for (vertex_t i = 0; i < n; ++i) {
    if (i % 65536 == 0) stop_if_cancelled();
    const vertex_t v = order[i];
    for (vertex_t u : g.neighbors(v)) {
      if (degree[u] <= degree[v]) continue;
      const edge_t du = degree[u];
      const vertex_t front = bucket_start[du];
      const vertex_t w = order[front];
      if (u != w) {
        std::swap(order[position[u]], order[front]);
        std::swap(position[u], position[w]);
      }
      ++bucket_start[du];
      --degree[u];
    }
  }
  return std::vector<std::uint32_t>(degree.begin(), degree.end());
}

}  // namespace courier::graph::reference
