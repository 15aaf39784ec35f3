#pragma once
#include <cstdint>
#include <vector>

#include "courier/graph/csr.hpp"
#include "courier/graph/reference/unreached.hpp"

namespace courier::graph::reference {

struct SsspResult {
  WeightType weight_type = WeightType::u32;
  std::vector<std::uint64_t> dist_int;  // u32 weights; kUnreached where not reached
  std::vector<double> dist_real;        // f32 weights; +infinity where not reached
};
// Dijkstra following edge directions. Integer weights give exact integer distances; float weights
// give double distances (summed in double). Throws InputError for an unweighted graph (sssp needs
// weights), a negative or NaN float weight, or a source that is not a vertex.
SsspResult sssp(const Csr& graph, vertex_t source);

}  // namespace courier::graph::reference
