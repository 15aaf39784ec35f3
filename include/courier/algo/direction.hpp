#pragma once
// Which way a data-driven round runs (Gemini's dual mode, paper 000): push from the active
// vertices along their out-edges (sparse), or pull into every vertex over its in-edges (dense).
#include <cstdint>
#include <string>

#include "courier/vertex/engine.hpp"

namespace courier::algo {

// push: the active vertices' out-edges; pull: every vertex scans its in-edges (needs the graph
// partitioned with in-edges); automatic: a rule chooses each round.
enum class Direction { automatic, push, pull };

Direction parse_direction(const std::string& text);  // "auto", "push" or "pull"

// Out-edges stored here of the frontier's proxies (summed over ranks: the frontier's out-edges).
std::uint64_t out_edges_of(const dist::LocalGraph& g, const vertex::Frontier& frontier);

// Gemini's rule: a round is dense (pulls) when its active vertices and their out-edges together
// exceed this fraction of the graph's edges. Gemini uses 1/20: a pull reads every in-edge, a push
// only the active ones', but a pull writes each vertex once, from one thread, with no atomics.
// Without an early exit (bfs has one) that does not pay on this machine for sssp and cc's label
// propagation, whose pushes rarely write (bench/RESULTS.md, "Direction switching"): they push
// unless asked for auto.
inline constexpr double kDenseFraction = 1.0 / 20;

// Collective: whether this round of `frontier` (prepared, global count in engine.active()) should
// pull under `direction`; `edges` is the graph's edge count (all ranks). Automatic without
// in-edges always pushes.
bool pulls_this_round(vertex::Engine& engine, const vertex::Frontier& frontier, Direction direction,
                      std::uint64_t edges);

}  // namespace courier::algo
