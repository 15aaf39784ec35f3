#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "courier/algo/direction.hpp"
#include "courier/vertex/engine.hpp"

namespace courier::algo {

using graph::vertex_t;

struct BfsOptions {
  vertex_t source = 0;
  // pull: every unvisited vertex scans its in-edges; automatic: Beamer's rule, as GAP applies it:
  // switch to pull when the frontier's out-edges exceed the edges not yet explored / alpha; back
  // to push when the frontier shrinks below vertices / beta.
  Direction direction = Direction::automatic;
  double alpha = 15;
  double beta = 18;
};

// Breadth-first levels following edge directions, the same as graph::reference::bfs: one entry
// per master of this rank (local ids 0..masters-1), kUnreached where not reached. Collective.
std::vector<std::uint64_t> bfs(vertex::Engine& engine, const BfsOptions& options = {});
// The same levels as the run keeps them, 4 bytes each (harness::kNarrowUnreached where not
// reached): handed over without a copy, for a caller that widens them later or never.
std::vector<std::uint32_t> bfs_levels(vertex::Engine& engine, const BfsOptions& options = {});

}  // namespace courier::algo
