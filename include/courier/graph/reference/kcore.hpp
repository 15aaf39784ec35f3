#pragma once
#include <cstdint>
#include <vector>

#include "courier/graph/csr.hpp"

namespace courier::graph::reference {

// Core numbers of the undirected simple graph (both directions, no loops, no duplicates, as
// networkx's core_number): the largest k such that v is in a subgraph where every degree >= k.
std::vector<std::uint32_t> kcore(const Csr& graph);

}  // namespace courier::graph::reference
