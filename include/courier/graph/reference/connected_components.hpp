#pragma once
#include <vector>

#include "courier/graph/csr.hpp"

namespace courier::graph::reference {

// Weakly connected components (edge directions ignored), each vertex labelled by the smallest
// vertex id of its component.
std::vector<vertex_t> connected_components(const Csr& graph);

}  // namespace courier::graph::reference
