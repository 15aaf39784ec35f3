#include "courier/graph/reference/degrees.hpp"

namespace courier::graph::reference {

std::vector<std::uint64_t> out_degrees(const Csr& graph) {
  std::vector<std::uint64_t> degree(graph.num_vertices());
  for (vertex_t v = 0; v < graph.num_vertices(); ++v) degree[v] = graph.degree(v);
  return degree;
}

}  // namespace courier::graph::reference
