#pragma once
#include <span>
#include <vector>

#include "courier/graph/csr.hpp"

namespace courier::graph::reference {

// y = A x for the graph's adjacency matrix: A[u][v] is the weight of edge u -> v (1 without
// weights; parallel edges add), so y[u] sums weight * x[v] over u's out-edges. x has one entry
// per vertex; throws courier::Error otherwise.
std::vector<double> spmv(const Csr& graph, std::span<const double> x);

}  // namespace courier::graph::reference
