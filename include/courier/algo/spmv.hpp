#pragma once
#include <functional>
#include <vector>

#include "courier/vertex/engine.hpp"

namespace courier::algo {

using graph::vertex_t;

// y = A x with A[u][v] the weight of edge u -> v (1 if unweighted): every proxy u sums A[u][v] x[v]
// over the out-edges stored on this rank, and mirrors' sums are added into their masters (a
// vertex cut spreads a row over ranks). x is given as a function of the global id, so each rank
// computes the x of its targets rather than receiving it. One entry per master of this rank.
// Collective.
std::vector<double> spmv(vertex::Engine& engine, const std::function<double(vertex_t)>& x);

}  // namespace courier::algo
