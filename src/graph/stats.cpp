#include "courier/graph/stats.hpp"

#include <algorithm>
#include <vector>

#include "courier/graph/reference.hpp"

namespace courier::graph {

namespace {
// Duplicates within one row; rows built by build_csr are sorted, others are sorted on a copy.
edge_t duplicates_in(std::span<const vertex_t> row, std::vector<vertex_t>& scratch) {
  if (!std::is_sorted(row.begin(), row.end())) {
    scratch.assign(row.begin(), row.end());
    std::sort(scratch.begin(), scratch.end());
    row = scratch;
  }
  edge_t duplicates = 0;
  for (std::size_t i = 1; i < row.size(); ++i) duplicates += row[i] == row[i - 1];
  return duplicates;
}
}  // namespace

GraphStats describe(const Csr& graph) {
  GraphStats stats;
  const vertex_t n = graph.num_vertices();
  stats.vertices = n;
  stats.edges = graph.num_edges();
  stats.weights = graph.weight_type();
  if (n == 0) return stats;

  std::vector<bool> has_edge(n, false);
  std::vector<vertex_t> scratch;
  stats.min_out_degree = graph.degree(0);
  for (vertex_t v = 0; v < n; ++v) {
    const auto row = graph.neighbors(v);
    stats.min_out_degree = std::min<edge_t>(stats.min_out_degree, row.size());
    stats.max_out_degree = std::max<edge_t>(stats.max_out_degree, row.size());
    if (!row.empty()) has_edge[v] = true;
    for (vertex_t u : row) {
      has_edge[u] = true;
      stats.self_loops += u == v;
    }
    stats.duplicate_edges += duplicates_in(row, scratch);
  }
  stats.mean_out_degree = static_cast<double>(stats.edges) / static_cast<double>(n);
  stats.isolated_vertices = static_cast<vertex_t>(std::count(has_edge.begin(), has_edge.end(), false));

  const std::vector<vertex_t> label = reference::connected_components(graph);
  std::vector<vertex_t> size(n, 0);
  for (vertex_t v = 0; v < n; ++v) ++size[label[v]];
  for (vertex_t v = 0; v < n; ++v) {
    if (size[v] == 0) continue;
    ++stats.components;
    stats.largest_component = std::max(stats.largest_component, size[v]);
  }
  return stats;
}

}  // namespace courier::graph
