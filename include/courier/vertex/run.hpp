#pragma once
// vertex::run: the door for a program that runs an algorithm on this rank: a team of threads
// (pinned where the machine allows, see core/placement.hpp), an Engine over the rank's graph and
// channel, the algorithm, and the run's statistics. Collective: every rank calls it with the
// same algorithm.
#include <functional>

#include "courier/core/placement.hpp"
#include "courier/vertex/engine.hpp"

namespace courier::vertex {

// `threads` members in the team, the calling thread included. Ranks that are threads of one
// process (the local transport) say so in `placement` (local_rank = rank, local_ranks = ranks).
RunStats run(const dist::LocalGraph& graph, sync::Channel& channel, unsigned threads,
             const std::function<void(Engine&)>& algorithm, const PlacementOptions& placement = {});

}  // namespace courier::vertex
