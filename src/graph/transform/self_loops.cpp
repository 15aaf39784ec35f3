#include "courier/graph/transform.hpp"
#include "edge_list_support.hpp"

namespace courier::graph {

EdgeList remove_self_loops(const EdgeList& list) {
  detail::check_edge_list(list, "remove_self_loops");
  std::vector<edge_t> kept;
  kept.reserve(list.edges.size());
  for (edge_t i = 0; i < list.edges.size(); ++i)
    if (list.edges[i].src != list.edges[i].dst) kept.push_back(i);

  EdgeList out;
  out.num_vertices = list.num_vertices;
  out.edges.reserve(kept.size());
  for (edge_t i : kept) out.edges.push_back(list.edges[i]);
  out.weights = detail::gather_weights(list.weights, kept);
  return out;
}

}  // namespace courier::graph
