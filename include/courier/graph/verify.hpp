#pragma once
// Independent verifiers, in the manner of GAP and Graph500: each checks a result against the
// definition of the problem (not by recomputing it the same way), in O(edges). Each returns an
// empty string when the result is right, otherwise what is wrong (the first few differences).
#include <cstdint>
#include <span>
#include <string>

#include "courier/graph/csr.hpp"
#include "courier/graph/reference.hpp"

namespace courier::graph::verify {

// level[source] = 0; along every edge u -> v from a reached u, level[v] <= level[u] + 1; every
// reached v other than the source has an in-edge from level[v] - 1; unreached = kUnreached.
std::string bfs_levels(const Csr& graph, vertex_t source, std::span<const std::uint64_t> level);

// The same for distances with the edge weights (positive weights): no edge can shorten a
// distance, and every reached vertex has a tight in-edge.
std::string sssp(const Csr& graph, vertex_t source, const reference::SsspResult& result);

// Labels are constant along every edge, each label is the smallest id of its set, and there are
// as many labels as an independent union-find finds components.
std::string components(const Csr& graph, std::span<const vertex_t> label);

// Ranks sum to 1 and one more PageRank step moves them by at most `l1_tolerance` (L1).
std::string pagerank(const Csr& graph, std::span<const double> rank, double damping,
                     double l1_tolerance);

// Exact equality of two per-vertex arrays, naming the quantity in the message.
std::string equal(std::span<const std::uint64_t> expected, std::span<const std::uint64_t> got,
                  const char* what);
// L1 distance of two per-vertex arrays within `tolerance`.
std::string close(std::span<const double> expected, std::span<const double> got, double tolerance,
                  const char* what);

}  // namespace courier::graph::verify
