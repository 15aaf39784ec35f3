#include "edge_list_support.hpp"

#include <fmt/format.h>

#include "courier/core/error.hpp"

namespace courier::graph::detail {

void check_edge_list(const EdgeList& list, const char* who) {
  const vertex_t n = list.num_vertices;
  for (const Edge& e : list.edges)
    if (e.src >= n || e.dst >= n)
      throw Error(fmt::format("{}: edge {} -> {} is outside the {} vertices", who, e.src, e.dst, n));
  std::visit(
      [&](const auto& w) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(w)>, std::monostate>)
          if (w.size() != list.edges.size())
            throw Error(fmt::format("{}: {} weights for {} edges", who, w.size(), list.edges.size()));
      },
      list.weights);
}

EdgeWeights gather_weights(const EdgeWeights& weights, std::span<const edge_t> order) {
  return map_weights(weights, [&](const auto& w) {
    std::decay_t<decltype(w)> out(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) out[i] = w[order[i]];
    return out;
  });
}

}  // namespace courier::graph::detail
