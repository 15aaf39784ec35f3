#pragma once
#include <cstdint>
#include <vector>

#include "courier/graph/csr.hpp"
#include "courier/graph/reference/unreached.hpp"

namespace courier::graph::reference {

struct BfsResult {
  std::vector<std::uint64_t> level;   // kUnreached where not reached
  std::vector<vertex_t> parent;       // kNoVertex where not reached; the source is its own parent
};
// Breadth-first search following edge directions. A vertex's parent is the first vertex of the
// previous level (in queue order) with an edge to it. Throws InputError if source is not a vertex.
BfsResult bfs(const Csr& graph, vertex_t source);

}  // namespace courier::graph::reference
