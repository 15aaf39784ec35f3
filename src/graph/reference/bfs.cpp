#include "courier/graph/reference/bfs.hpp"

#include "check_source.hpp"
#include "courier/core/cancel.hpp"

namespace courier::graph::reference {

BfsResult bfs(const Csr& graph, vertex_t source) {
  detail::check_source(graph, source, "bfs");
  const vertex_t n = graph.num_vertices();
  BfsResult result{std::vector<std::uint64_t>(n, kUnreached), std::vector<vertex_t>(n, kNoVertex)};
  std::vector<vertex_t> queue{source};  // every vertex enters once, so a vector with a head will do
  result.level[source] = 0;
  result.parent[source] = source;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    if (head % 65536 == 0) stop_if_cancelled();
    const vertex_t u = queue[head];
    for (vertex_t v : graph.neighbors(u))
      if (result.level[v] == kUnreached) {
        result.level[v] = result.level[u] + 1;
        result.parent[v] = u;
        queue.push_back(v);
      }
  }
  return result;
}

}  // namespace courier::graph::reference
