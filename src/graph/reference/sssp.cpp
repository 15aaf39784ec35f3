#include "courier/graph/reference/sssp.hpp"

#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <utility>

#include "check_source.hpp"
#include "courier/core/cancel.hpp"

namespace courier::graph::reference {

namespace {

// Dijkstra with a binary heap and lazy deletion: a vertex may sit in the heap several times, and
// only its entry with the current distance is expanded.
template <class Distance, class Weight>
std::vector<Distance> dijkstra(const Csr& graph, vertex_t source, Distance unreached) {
  const auto weights = graph.weights_as<Weight>();
  const auto offsets = graph.offsets();
  const auto targets = graph.targets();
  std::vector<Distance> dist(graph.num_vertices(), unreached);
  using Entry = std::pair<Distance, vertex_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
  dist[source] = 0;
  heap.push({0, source});
  std::uint64_t pops = 0;
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (++pops % 65536 == 0) stop_if_cancelled();
    if (d != dist[u]) continue;
    for (edge_t k = offsets[u]; k < offsets[u + 1]; ++k) {
      const Distance candidate = d + static_cast<Distance>(weights[k]);
      if (candidate < dist[targets[k]]) {
        dist[targets[k]] = candidate;
        heap.push({candidate, targets[k]});
      }
    }
  }
  return dist;
}

}  // namespace

SsspResult sssp(const Csr& graph, vertex_t source) {
  if (!graph.has_weights())
    throw InputError("sssp needs edge weights, and this graph has none; use a weighted graph "
                     "(e.g. a .wel file or a generator with weights)");
  detail::check_source(graph, source, "sssp");
  SsspResult result;
  result.weight_type = graph.weight_type();
  if (result.weight_type == WeightType::u32) {
    result.dist_int = dijkstra<std::uint64_t, std::uint32_t>(graph, source, kUnreached);
  } else {
    for (float w : graph.weights_as<float>())
      if (!(w >= 0))
        throw InputError(fmt::format("sssp: edge weight {} is negative or NaN; Dijkstra needs "
                                     "non-negative weights", w));
    result.dist_real =
        dijkstra<double, float>(graph, source, std::numeric_limits<double>::infinity());
  }
  return result;
}

}  // namespace courier::graph::reference
