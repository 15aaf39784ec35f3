#include "courier/graph/transform.hpp"
#include "edge_list_support.hpp"

namespace courier::graph {

Compacted compact_ids(const EdgeList& list) {
  detail::check_edge_list(list, "compact_ids");
  const vertex_t n = list.num_vertices;
  std::vector<vertex_t> new_id(n, kNoVertex);
  for (const Edge& e : list.edges) new_id[e.src] = new_id[e.dst] = 0;

  Compacted out;
  for (vertex_t v = 0; v < n; ++v)
    if (new_id[v] != kNoVertex) {
      new_id[v] = out.original_id.size();
      out.original_id.push_back(v);
    }
  out.edges.num_vertices = out.original_id.size();
  out.edges.edges.reserve(list.edges.size());
  for (const Edge& e : list.edges) out.edges.edges.push_back({new_id[e.src], new_id[e.dst]});
  out.edges.weights = list.weights;
  return out;
}

}  // namespace courier::graph
