#include <algorithm>

#include "courier/graph/transform.hpp"
#include "edge_list_support.hpp"

namespace courier::graph {

EdgeList symmetrize(const EdgeList& list) {
  detail::check_edge_list(list, "symmetrize");
  std::vector<edge_t> reversed;  // the non-loop edges, whose reverses are appended
  for (edge_t i = 0; i < list.edges.size(); ++i)
    if (list.edges[i].src != list.edges[i].dst) reversed.push_back(i);

  EdgeList out;
  out.num_vertices = list.num_vertices;
  out.edges.reserve(list.edges.size() + reversed.size());
  out.edges = list.edges;
  for (edge_t i : reversed) out.edges.push_back({list.edges[i].dst, list.edges[i].src});
  out.weights = detail::map_weights(list.weights, [&](const auto& w) {
    auto all = w;
    all.reserve(w.size() + reversed.size());
    for (edge_t i : reversed) all.push_back(w[i]);
    return all;
  });
  return out;
}

}  // namespace courier::graph
