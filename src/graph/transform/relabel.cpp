#include <fmt/format.h>

#include "courier/core/error.hpp"
#include "courier/core/parallel.hpp"
#include "courier/graph/transform.hpp"
#include "edge_list_support.hpp"

namespace courier::graph {

EdgeList relabel(const EdgeList& list, const std::vector<vertex_t>& new_id) {
  detail::check_edge_list(list, "relabel");
  const vertex_t n = list.num_vertices;
  if (new_id.size() != n)
    throw Error(fmt::format("relabel: {} new ids for {} vertices", new_id.size(), n));
  std::vector<bool> taken(n, false);
  for (vertex_t v = 0; v < n; ++v) {
    if (new_id[v] >= n || taken[new_id[v]])
      throw Error(fmt::format("relabel: new ids are not a permutation of 0..{} (vertex {} -> {})",
                              n - 1, v, new_id[v]));
    taken[new_id[v]] = true;
  }

  EdgeList out;
  out.num_vertices = n;
  out.edges.resize(list.edges.size());
  parallel_for(list.edges.size(), threads_for(list.edges.size()), [&](std::uint64_t begin, std::uint64_t end, unsigned) {
    for (std::uint64_t i = begin; i < end; ++i)
      out.edges[i] = {new_id[list.edges[i].src], new_id[list.edges[i].dst]};
  });
  out.weights = list.weights;
  return out;
}

}  // namespace courier::graph
