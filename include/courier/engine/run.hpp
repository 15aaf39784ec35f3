#pragma once
// engine::run: the door for a program that runs an algorithm on this rank: a team of threads, an
// Engine over the rank's graph and channel, the algorithm, and the run's statistics. Collective:
// every rank calls it with the same algorithm.
#include <functional>

#include "courier/engine/engine.hpp"

namespace courier::engine {

// `threads` members in the team, the calling thread included.
RunStats run(const dist::LocalGraph& graph, sync::Channel& channel, unsigned threads,
             const std::function<void(Engine&)>& algorithm);

}  // namespace courier::engine
