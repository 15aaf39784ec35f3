#pragma once
// What the transforms share: validating an edge list, and moving weights along with edges.
#include <span>
#include <type_traits>
#include <variant>
#include <vector>

#include "courier/graph/edge_list.hpp"

namespace courier::graph::detail {

// Throws courier::Error naming `who` if an id is not below num_vertices or the weights do not
// match the edges.
void check_edge_list(const EdgeList& edges, const char* who);

// fn(weights) for a weighted list, where weights is a const std::vector<W>& and fn returns a
// std::vector<W>; no weights stay no weights.
template <class Fn>
EdgeWeights map_weights(const EdgeWeights& weights, Fn&& fn) {
  return std::visit(
      [&](const auto& w) -> EdgeWeights {
        if constexpr (std::is_same_v<std::decay_t<decltype(w)>, std::monostate>)
          return std::monostate{};
        else
          return fn(w);
      },
      weights);
}

// The weights of the edges `order` names, in that order.
EdgeWeights gather_weights(const EdgeWeights& weights, std::span<const edge_t> order);

}  // namespace courier::graph::detail
