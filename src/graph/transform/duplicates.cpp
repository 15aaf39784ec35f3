#include "courier/graph/transform.hpp"
#include "edge_list_support.hpp"

namespace courier::graph {

EdgeList remove_duplicate_edges(const EdgeList& list) {
  detail::check_edge_list(list, "remove_duplicate_edges");
  const std::vector<edge_t> order = detail::sorted_edge_order(list);

  // `order` holds equal pairs next to each other; keep the first edge of each run.
  EdgeList out;
  out.num_vertices = list.num_vertices;
  std::vector<edge_t> run_start;  // positions in `order` where a new pair begins
  for (edge_t k = 0; k < order.size(); ++k)
    if (k == 0 || list.edges[order[k]] != list.edges[order[k - 1]]) run_start.push_back(k);
  out.edges.reserve(run_start.size());
  for (edge_t k : run_start) out.edges.push_back(list.edges[order[k]]);

  out.weights = detail::map_weights(list.weights, [&](const auto& w) {
    std::decay_t<decltype(w)> smallest(run_start.size());
    for (std::size_t r = 0; r < run_start.size(); ++r) {
      const edge_t end = r + 1 < run_start.size() ? run_start[r + 1] : order.size();
      auto best = w[order[run_start[r]]];
      for (edge_t k = run_start[r] + 1; k < end; ++k)
        if (w[order[k]] < best) best = w[order[k]];
      smallest[r] = best;
    }
    return smallest;
  });
  return out;
}

}  // namespace courier::graph
