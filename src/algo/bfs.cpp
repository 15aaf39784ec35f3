// BFS by levels, direction-optimizing (Beamer): push from a small frontier, pull into unvisited
// vertices when the frontier is large. Level is a min-label read at sources, written at
// destinations; the engine moves it as the partition policy needs. Each vertex reached gets its
// reacher's level + 1, so a rank that runs levels alone (Engine::next_level: pushes only, the
// direction rule's state untouched, so every rank keeps deciding alike) needs no shared depth.
#include "courier/algo/bfs.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "courier/core/error.hpp"
#include "courier/harness/values.hpp"
#include "courier/sync/reduction.hpp"

namespace courier::algo {

using namespace courier::vertex;

namespace {

constexpr std::uint32_t kUnvisited = harness::kNarrowUnreached;

}  // namespace

std::vector<std::uint32_t> bfs_levels(Engine& engine, const BfsOptions& options) {
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
  if (options.direction == Direction::pull && !g.has_in_edges())
    throw Error("bfs: --direction pull needs the graph partitioned with in-edges");
  const bool can_pull = options.direction == Direction::automatic && g.has_in_edges();
  const bool always_pull = options.direction == Direction::pull;
  const double vertices = static_cast<double>(g.global_vertices());
  double unexplored = can_pull ? static_cast<double>(engine.sum_all(std::uint64_t{g.edges()})) : 0;
  bool pulling = false;
  std::uint64_t last_active = 0;
  auto push = [&] {
    engine.push(frontier, [&](local_t u, local_t v, edge_t) {
      if (level.load(v) == kUnvisited) level.combine(v, level[u] + 1);
    });
  };
  while (engine.next_round(frontier)) {
    if (can_pull) {
      const double active = static_cast<double>(engine.active());
      if (!pulling) {
        const double frontier_edges = static_cast<double>(engine.sum_all(out_edges_of(g, frontier)));
        // A pull visits every vertex: the frontier must outweigh them too, so a tiny one (the
        // tail of a long path) never pulls.
        pulling = frontier_edges > std::max(unexplored, vertices) / options.alpha;
        unexplored -= frontier_edges;
      } else {
        pulling = !(active < vertices / options.beta && engine.active() < last_active);
      }
      last_active = engine.active();
    }
    if (pulling || always_pull) {
      // The frontier holds exactly the proxies of the last level (every label written in the last
      // round was that level, and each write or sync marked it), and its bitset is 1/32 the size
      // of the levels, so the scan tests bits; each thread owns whole words of v's marks.
      // Every vertex in it holds that level, so the next is read once, not at every reacher.
      // Nothing writes the frontier during the pull, so it is tested with plain loads.
      const Bitset& current = frontier.bits();
      const std::size_t first = current.first();
      const std::uint32_t next = first < current.size() ? level[static_cast<local_t>(first)] + 1 : kUnvisited;
      engine.pull([&level, reached = current.view(), next](local_t v, std::span<const local_t> in, edge_t) {
        if (level[v] != kUnvisited) return;
        for (local_t u : in)
          if (reached.test(u)) {
            level.set_exclusive(v, next);
            return;
          }
      });
    } else {
      push();
    }
    while (!always_pull && engine.next_level(frontier, level)) push();
    engine.sync(level);
    frontier.take(level.updated());
  }
  std::vector<std::uint32_t> levels = std::move(level.values());
  levels.resize(g.masters());  // the masters come first; shrinking keeps the memory
  return levels;
}

std::vector<std::uint64_t> bfs(Engine& engine, const BfsOptions& options) {
  harness::Values levels = bfs_levels(engine, options);
  harness::widen(levels);
  return std::move(std::get<std::vector<std::uint64_t>>(levels));
}

}  // namespace courier::algo
