#pragma once
#include <cstdint>
#include <vector>

#include "courier/engine/engine.hpp"

namespace courier::algo {

using graph::vertex_t;

struct BfsOptions {
  vertex_t source = 0;
  // Pull (each unvisited vertex scans its in-edges) once the frontier holds more than this share
  // of all vertices, push otherwise. Pull needs the graph partitioned with in-edges.
  bool direction_optimizing = true;
  double pull_share = 0.05;
};

// Breadth-first levels following edge directions, the same as graph::reference::bfs: one entry
// per master of this rank (local ids 0..masters-1), kUnreached where not reached. Collective.
std::vector<std::uint64_t> bfs(engine::Engine& engine, const BfsOptions& options = {});

}  // namespace courier::algo
