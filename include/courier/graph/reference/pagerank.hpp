#pragma once
#include <vector>

#include "courier/graph/csr.hpp"

namespace courier::graph::reference {

struct PagerankOptions {
  double damping = 0.85;
  double tolerance = 1e-9;        // stop when the L1 change of a step is below it
  unsigned max_iterations = 1000;
};
struct PagerankResult {
  std::vector<double> rank;       // sums to 1
  unsigned iterations = 0;        // steps taken
  double last_change = 0;         // L1 change of the last step
  bool converged = false;         // last_change < tolerance
};
// Rank flows along edges: from u to each of its out-neighbours, rank(u) / out_degree(u) per edge
// (parallel edges count twice, weights are ignored). The mass of vertices without out-edges is
// spread evenly over all vertices; the initial rank is 1/n.
PagerankResult pagerank(const Csr& graph, const PagerankOptions& options = {});

}  // namespace courier::graph::reference
