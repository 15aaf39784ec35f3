#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "courier/vertex/engine.hpp"

namespace courier::algo {

using graph::vertex_t;

struct BcOptions {
  std::vector<vertex_t> sources;  // ids beyond the graph are left out
  // Shortest paths by uint32 edge weights (all positive) rather than by edges.
  bool weighted = false;
};

// Betweenness centrality (Brandes) from `options.sources`, following edge directions and counting
// a repeated edge as another path, unnormalised (the sum of every source's dependencies), the same
// as the sequential reference: one entry per master of this rank. Collective.
std::vector<double> bc(vertex::Engine& engine, const BcOptions& options);

// `count` distinct sources drawn reproducibly from `seed` among the vertices with out-edges
// (a source without any contributes nothing), as GAP draws them: uniform ids, rejected until one
// has out-edges. All of them, in id order, when `count` reaches their number.
std::vector<vertex_t> sample_sources(vertex_t vertices, const std::function<bool(vertex_t)>& has_out_edges,
                                     std::uint64_t count, std::uint64_t seed);

// Every rank learns which global vertices have out-edges (one bit each). Collective.
std::vector<bool> vertices_with_out_edges(vertex::Engine& engine);

}  // namespace courier::algo
