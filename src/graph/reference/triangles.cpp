#include "courier/graph/reference/triangles.hpp"

#include <algorithm>
#include <numeric>

#include "courier/core/cancel.hpp"
#include "courier/graph/transform.hpp"

namespace courier::graph::reference {

namespace {

// The undirected simple graph renamed by rank, rank = position in (degree, id) order, with each
// edge kept only from its lower-ranked end: every row then holds at most about sqrt(2m) higher
// ranks, and the hubs sit together at the end.
struct OrientedGraph {
  std::vector<vertex_t> vertex_at;  // rank -> original id
  std::vector<edge_t> offsets;
  std::vector<vertex_t> higher;     // ranks

  std::span<const vertex_t> row(vertex_t r) const {
    return {higher.data() + offsets[r], offsets[r + 1] - offsets[r]};
  }
};

OrientedGraph orient_by_degree(const Csr& undirected) {
  const vertex_t n = undirected.num_vertices();
  OrientedGraph g;
  // Counting sort by degree; ids ascend within a degree.
  edge_t max_degree = 0;
  for (vertex_t v = 0; v < n; ++v) max_degree = std::max(max_degree, undirected.degree(v));
  std::vector<vertex_t> first_rank(max_degree + 2, 0);
  for (vertex_t v = 0; v < n; ++v) ++first_rank[undirected.degree(v) + 1];
  std::partial_sum(first_rank.begin(), first_rank.end(), first_rank.begin());
  std::vector<vertex_t> rank_of(n);
  g.vertex_at.resize(n);
  for (vertex_t v = 0; v < n; ++v) {
    rank_of[v] = first_rank[undirected.degree(v)]++;
    g.vertex_at[rank_of[v]] = v;
  }

  g.offsets.assign(n + 1, 0);
  g.higher.reserve(undirected.num_edges() / 2);
  for (vertex_t r = 0; r < n; ++r) {
    for (vertex_t w : undirected.neighbors(g.vertex_at[r]))
      if (rank_of[w] > r) g.higher.push_back(rank_of[w]);
    g.offsets[r + 1] = g.higher.size();
  }
  return g;
}

}  // namespace

TriangleResult triangles(const Csr& graph) {
  const OrientedGraph g = orient_by_degree(simple_undirected(graph));
  const vertex_t n = g.vertex_at.size();

  // A triangle r < s < t (ranks) is found once: at r, through its edge to s, as a t in s's row
  // that is also in r's row. Intersecting by marking r's row costs only the length of s's row,
  // where merging two sorted rows would cost both (measured twice as slow on kron:18).
  std::vector<vertex_t> marked_by(n, kNoVertex);
  std::vector<std::uint64_t> per_rank(n, 0);
  std::uint64_t total = 0;
  for (vertex_t r = 0; r < n; ++r) {
    if (r % 4096 == 0) stop_if_cancelled();
    const auto row = g.row(r);
    for (vertex_t s : row) marked_by[s] = r;
    for (vertex_t s : row) {
      std::uint64_t found = 0;
      for (vertex_t t : g.row(s))
        if (marked_by[t] == r) {
          ++per_rank[t];
          ++found;
        }
      per_rank[s] += found;
      per_rank[r] += found;
      total += found;
    }
  }

  TriangleResult result;
  result.total = total;
  result.per_vertex.resize(n);
  for (vertex_t r = 0; r < n; ++r) result.per_vertex[g.vertex_at[r]] = per_rank[r];
  return result;
}

}  // namespace courier::graph::reference
