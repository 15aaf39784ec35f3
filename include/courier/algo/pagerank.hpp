#pragma once
#include <vector>

#include "courier/engine/engine.hpp"

namespace courier::algo {

struct PagerankOptions {
  double damping = 0.85;
  double tolerance = 1e-9;  // stop when a step changes the ranks by less than this (L1)
  unsigned max_iterations = 1000;  // or after this many steps (a fixed count with tolerance 0)
};

struct PagerankResult {
  std::vector<double> rank;  // one per master of this rank
  unsigned iterations = 0;
  double last_change = 0;    // L1 over all vertices
  bool converged = false;
};

// PageRank by pull, with graph::reference::pagerank's definition: rank(u) / out_degree(u) along
// each out-edge, the rank of vertices without out-edges spread evenly over all vertices, initial
// rank 1/n. Needs the graph partitioned with in-edges. Collective.
PagerankResult pagerank(engine::Engine& engine, const PagerankOptions& options = {});

}  // namespace courier::algo
