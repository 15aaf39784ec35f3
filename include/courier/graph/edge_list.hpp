#pragma once
// EdgeList: edges as read from a file or made by a generator, before they become a Csr.
#include <cstdint>
#include <variant>
#include <vector>

#include "courier/graph/types.hpp"

namespace courier::graph {

struct Edge {
  vertex_t src = 0;
  vertex_t dst = 0;
  friend bool operator==(const Edge&, const Edge&) = default;
  friend auto operator<=>(const Edge&, const Edge&) = default;
};

// No weights, or one weight per edge in the same order as the edges.
using EdgeWeights = std::variant<std::monostate, std::vector<std::uint32_t>, std::vector<float>>;

struct EdgeList {
  vertex_t num_vertices = 0;  // every id is < num_vertices
  std::vector<Edge> edges;
  EdgeWeights weights;

  WeightType weight_type() const;
  bool has_weights() const { return weight_type() != WeightType::none; }
};

}  // namespace courier::graph
