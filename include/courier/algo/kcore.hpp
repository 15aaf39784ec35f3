#pragma once
#include <cstdint>
#include <vector>

#include "courier/vertex/engine.hpp"

namespace courier::algo {

// Core numbers, the same as graph::reference::kcore, by peeling: at level k, vertices with at
// most k neighbours left are removed (core k) round after round, and their neighbours lose one
// each; when none is left at k, k moves to the smallest degree left. The graph must be the
// undirected simple graph (partition graph::simple_undirected's edges). One entry per master.
// Collective.
std::vector<std::uint32_t> kcore(vertex::Engine& engine);

}  // namespace courier::algo
