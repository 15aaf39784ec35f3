// BFS by levels, direction-optimizing (Beamer): push from a small frontier, pull into unvisited
// vertices when the frontier is large. Level is a min-label read at sources, written at
// destinations; the engine moves it as the partition policy needs.
#include "courier/algo/bfs.hpp"

#include <fmt/format.h>

#include "courier/core/error.hpp"
#include "courier/graph/reference/unreached.hpp"
#include "courier/sync/reduction.hpp"

namespace courier::algo {

using namespace courier::vertex;

namespace {

constexpr std::uint32_t kUnvisited = UINT32_MAX;

// Out-edges stored here of the frontier's proxies (summed over ranks: the frontier's out-edges).
std::uint64_t out_edges_of(const dist::LocalGraph& g, const Frontier& frontier) {
  std::uint64_t edges = 0;
  if (frontier.sparse())
    for (local_t v : frontier.list()) edges += g.out().degree(v);
  else
    frontier.bits().for_each(0, frontier.size(), [&](std::size_t v) { edges += g.out().degree(static_cast<local_t>(v)); });
  return edges;
}

}  // namespace

std::vector<std::uint64_t> bfs(Engine& engine, const BfsOptions& options) {
  const dist::LocalGraph& g = engine.graph();
  if (options.source >= g.global_vertices())
    throw InputError(fmt::format("bfs: source {} is not a vertex (the graph has {}); pick a smaller --source",
                                 options.source, g.global_vertices()));
  Field<std::uint32_t, sync::Min> level(g, kUnvisited, kAlongEdges, Track::always);
  Frontier frontier(g.proxies());
  if (auto s = g.local_id(options.source)) {  // every proxy of the source starts
    level[*s] = 0;
    frontier.add(*s);
  }
  const bool can_pull = options.direction_optimizing && g.has_in_edges();
  const double vertices = static_cast<double>(g.global_vertices());
  double unexplored = can_pull ? static_cast<double>(engine.sum_all(std::uint64_t{g.edges()})) : 0;
  bool pulling = false;
  std::uint64_t last_active = 0;
  for (std::uint32_t depth = 0; engine.next_round(frontier); ++depth) {
    const std::uint32_t next = depth + 1;
    if (can_pull) {
      const double active = static_cast<double>(engine.active());
      if (!pulling) {
        const double frontier_edges = static_cast<double>(engine.sum_all(out_edges_of(g, frontier)));
        pulling = frontier_edges > unexplored / options.alpha;
        unexplored -= frontier_edges;
      } else {
        pulling = !(active < vertices / options.beta && engine.active() < last_active);
      }
      last_active = engine.active();
    }
    if (pulling) {
      // The frontier holds exactly the proxies at level `depth` (every label written in the last
      // round was `depth`, and each write or sync marked it), and its bitset is 1/32 the size of
      // the levels, so the scan tests bits; each thread owns whole words of v's marks.
      const Bitset& current = frontier.bits();
      engine.pull([&](local_t v, std::span<const local_t> in, edge_t) {
        if (level[v] != kUnvisited) return;
        for (local_t u : in)
          if (current.test(u)) {
            level.set_exclusive(v, next);
            return;
          }
      });
    } else {
      engine.push(frontier, [&](local_t, local_t v, edge_t) {
        if (level.load(v) == kUnvisited) level.combine(v, next);
      });
    }
    engine.sync(level);
    frontier.take(level.updated());
  }
  std::vector<std::uint64_t> result(g.masters());
  for (local_t v = 0; v < g.masters(); ++v)
    result[v] = level[v] == kUnvisited ? graph::reference::kUnreached : level[v];
  return result;
}

}  // namespace courier::algo
