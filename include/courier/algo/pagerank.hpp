#pragma once
#include <vector>

#include "courier/algo/direction.hpp"
#include "courier/vertex/engine.hpp"

namespace courier::algo {

struct PagerankOptions {
  double damping = 0.85;
  double tolerance = 1e-9;  // stop when a step changes the ranks by less than this (L1)
  unsigned max_iterations = 1000;  // or after this many steps (a fixed count with tolerance 0)
  // pull: every vertex sums its in-neighbours' shares; push: every vertex scatters its share along
  // its out-edges (atomic adds). Every vertex is active every step, so Gemini's rule would pick
  // dense every step: automatic is pull (this PageRank has no residual variant with a shrinking
  // active set for the rule to follow).
  Direction direction = Direction::automatic;
  // Shares (rank / out-degree, read at random) in double always, not in float where
  // pagerank_float_shares allows: for comparisons with programs that compute in double.
  bool double_shares = false;
};

struct PagerankResult {
  std::vector<double> rank;  // one per master of this rank
  unsigned iterations = 0;
  double last_change = 0;    // L1 over all vertices
  bool converged = false;
};

// PageRank by pull (or push, options.direction), with graph::reference::pagerank's definition: rank(u) / out_degree(u) along
// each out-edge, the rank of vertices without out-edges spread evenly over all vertices, initial
// rank 1/n. Needs the graph partitioned with in-edges. Collective.
PagerankResult pagerank(vertex::Engine& engine, const PagerankOptions& options = {});

// Whether pagerank keeps the shares it pulls as floats for these options (half the bytes read
// and sent): when their rounding provably keeps the ranks within 5e-7 (L1) of doubles' and cannot
// move the stop by more than one step (pagerank.cpp says why). Sums, ranks and changes are double.
bool pagerank_float_shares(const PagerankOptions& options);

}  // namespace courier::algo
