#pragma once
// GraphStats: what `courier info` reports about a graph.
#include <cstdint>

#include "courier/graph/csr.hpp"

namespace courier::graph {

struct GraphStats {
  vertex_t vertices = 0;
  edge_t edges = 0;
  edge_t min_out_degree = 0;
  edge_t max_out_degree = 0;
  double mean_out_degree = 0;
  edge_t self_loops = 0;
  edge_t duplicate_edges = 0;     // edges beyond the first of each (source, target) pair
  vertex_t isolated_vertices = 0; // no edge in or out (a self loop counts as an edge)
  vertex_t components = 0;        // weakly connected
  vertex_t largest_component = 0;
  WeightType weights = WeightType::none;
};

GraphStats describe(const Csr& graph);

}  // namespace courier::graph
