#pragma once
#include <cstdint>
#include <vector>

#include "courier/algo/direction.hpp"
#include "courier/vertex/engine.hpp"

namespace courier::algo {

using graph::vertex_t;

struct SsspOptions {
  vertex_t source = 0;
  // 0: data-driven Bellman-Ford (every improved vertex relaxes its edges in the next round).
  // Otherwise delta-stepping: a round relaxes only improved vertices closer than the current
  // bucket's end, which moves on by delta when no rank has any left.
  std::uint64_t delta = 0;
  // push: the round's vertices relax their out-edges; pull: every vertex takes the best offer over
  // its in-edges from the round's vertices (needs in-edges); automatic: Gemini's rule
  // (direction.hpp) chooses each round.
  Direction direction = Direction::automatic;
};

// Shortest distances over uint32 edge weights, following edge directions, the same as
// graph::reference::sssp's dist_int: one entry per master of this rank, kUnreached where not
// reached. Throws InputError when the graph has no uint32 weights. Collective.
std::vector<std::uint64_t> sssp(vertex::Engine& engine, const SsspOptions& options = {});

}  // namespace courier::algo
