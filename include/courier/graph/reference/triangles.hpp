#pragma once
#include <cstdint>
#include <vector>

#include "courier/graph/csr.hpp"

namespace courier::graph::reference {

// The graph taken as undirected (both directions, no loops, no duplicates): per_vertex[v] is the
// number of triangles v is a corner of, total the number of triangles (sum of per_vertex / 3).
struct TriangleResult {
  std::vector<std::uint64_t> per_vertex;
  std::uint64_t total = 0;
};
TriangleResult triangles(const Csr& graph);

}  // namespace courier::graph::reference
