#include <algorithm>

#include "courier/graph/transform.hpp"
#include "edge_list_support.hpp"

namespace courier::graph {

namespace {

// The ids some edge touches, ascending. A flag per id when the id range is not much larger than
// the edge count; otherwise (ids scattered over a huge range) sorting the endpoints.
std::vector<vertex_t> touched_ids(const EdgeList& list) {
  const vertex_t n = list.num_vertices;
  std::vector<vertex_t> ids;
  if (n > 4 * list.edges.size() + 4096) {
    ids.reserve(2 * list.edges.size());
    for (const Edge& e : list.edges) {
      ids.push_back(e.src);
      ids.push_back(e.dst);
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
  }
  std::vector<bool> touched(n, false);
  for (const Edge& e : list.edges) touched[e.src] = touched[e.dst] = true;
  for (vertex_t v = 0; v < n; ++v)
    if (touched[v]) ids.push_back(v);
  return ids;
}

}  // namespace

Compacted compact_ids(const EdgeList& list) {
  detail::check_edge_list(list, "compact_ids");
  Compacted out;
  out.original_id = touched_ids(list);
  out.edges.num_vertices = out.original_id.size();
  out.edges.edges.reserve(list.edges.size());

  const auto& ids = out.original_id;
  if (list.num_vertices > 4 * list.edges.size() + 4096) {
    auto new_id = [&](vertex_t v) { return vertex_t(std::lower_bound(ids.begin(), ids.end(), v) - ids.begin()); };
    for (const Edge& e : list.edges) out.edges.edges.push_back({new_id(e.src), new_id(e.dst)});
  } else {
    std::vector<vertex_t> new_id(list.num_vertices, kNoVertex);
    for (vertex_t i = 0; i < ids.size(); ++i) new_id[ids[i]] = i;
    for (const Edge& e : list.edges) out.edges.edges.push_back({new_id[e.src], new_id[e.dst]});
  }
  out.edges.weights = list.weights;
  return out;
}

}  // namespace courier::graph
