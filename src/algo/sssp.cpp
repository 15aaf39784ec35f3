// Single-source shortest paths: data-driven Bellman-Ford, or delta-stepping when options.delta
// is set (pending vertices filed by bucket, sssp_buckets.hpp, so a round costs its bucket). Distance
// is a min-label read at sources and written at destinations. A round pushes (its vertices relax
// their out-edges) or, when its vertices and their edges are many (Gemini's rule, direction.hpp),
// pulls: every vertex takes the best offer over its in-edges from the round's vertices, written
// once by one thread; levels a rank runs alone always push.
// Distances are first kept in 32 bits, as GAP keeps them: half the bytes for the random reads
// of the relaxations. A distance that would not fit is noticed (never stored), the run stops at
// the next bucket change and is repeated in 64 bits, so the result is always the exact one.
#include "courier/algo/sssp.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

#include "courier/core/error.hpp"
#include "courier/graph/reference/unreached.hpp"
#include "courier/sync/reduction.hpp"
#include "sssp_buckets.hpp"

namespace courier::algo {

using namespace courier::vertex;
using graph::reference::kUnreached;

namespace {

// Improved vertices filed by one thread: below this many, waking the team costs more than it saves.
constexpr std::size_t kFileAlone = 4096;

// Shortest distances to this rank's masters in `result`, with labels of type Dist; false (on
// every rank) when some distance needed more than Dist holds. Collective.
template <class Dist>
bool shortest_distances(Engine& engine, const SsspOptions& options, const std::uint32_t* weight,
                        std::vector<std::uint64_t>& result) {
  constexpr Dist kFar = std::numeric_limits<Dist>::max();  // not reached
  static_assert(sizeof(Dist) < sizeof(std::uint64_t) || kFar == kUnreached);
  const dist::LocalGraph& g = engine.graph();
  const auto& out = g.out();
  Field<Dist, sync::Min> dist(g, kFar, kAlongEdges, Track::always);
  const std::uint64_t delta = options.delta == 0 ? kUnreached : options.delta;
  // Improved, not yet relaxed, by bucket: one set per thread, so that threads file in parallel.
  std::vector<SsspBuckets> pending;
  for (unsigned member = 0; member < engine.team().size(); ++member) pending.emplace_back(delta);
  auto distance_of = [&](local_t v) -> std::uint64_t { return dist[v]; };
  if (auto s = g.local_id(options.source)) {
    dist[*s] = 0;
    pending[0].file(*s, 0);
  }
  std::uint64_t bucket = 0;  // the current one: distances below (bucket + 1) * delta
  Frontier frontier(g.proxies());
  std::atomic<bool> too_far{false};
  // The round's work: pending vertices in the current bucket (all of them for Bellman-Ford).
  auto take_bucket = [&] {
    frontier.clear();
    for (SsspBuckets& mine : pending) mine.take_below(bucket + 1, distance_of, [&](local_t v) { frontier.add(v); });
  };
  // The first bucket with a pending vertex on this rank, if any.
  auto first_pending = [&](std::uint64_t& first) {
    bool any = false;
    for (SsspBuckets& mine : pending) {
      std::uint64_t b = 0;
      if (mine.first_bucket(distance_of, b) && (!any || b < first)) first = b, any = true;
    }
    return any;
  };
  // Improved vertices (by this rank's relaxations or by a sync) are filed by their new distance,
  // in parallel when they are many (a team's start costs more than filing a few).
  auto file_improved = [&] {
    Bitset& improved = dist.updated();
    improved.tidy();
    const std::size_t words = (improved.size() + 63) / 64;
    const std::size_t chunk = improved.count() < kFileAlone ? words : 256;
    engine.for_chunks(words, chunk, [&](std::size_t begin, std::size_t end, unsigned member) {
      improved.for_each(begin * 64, std::min(improved.size(), end * 64), [&](std::size_t v) {
        pending[member].file(static_cast<local_t>(v), dist[static_cast<local_t>(v)]);
      });
    });
    improved.clear();
  };
  // u's distance is read once: if another thread lowers it meanwhile, u is marked and relaxes
  // again with the lower one, so the distances come out the same.
  // What the loop reads it copies into locals first: the compiler keeps those in registers across
  // the atomic combines, where it would reload anything reached through memory.
  auto relax = [&] {
    out.offsets.visit([&](auto offsets) {
      engine.for_each_active(frontier, [&](local_t u) {
        const auto rows = offsets;
        const local_t* targets = out.targets.data();
        const std::uint32_t* weights = weight;
        Field<Dist, sync::Min>& labels = dist;
        const std::uint64_t from = labels.load(u);
        for (edge_t e = rows[u], end = rows[u + 1]; e < end; ++e) {
          const local_t v = targets[e];
          const std::uint64_t candidate = from + weights[e];
          if constexpr (sizeof(Dist) < sizeof(std::uint64_t)) {
            if (candidate >= kFar) {
              too_far.store(true, std::memory_order_relaxed);
              continue;
            }
          }
          if (candidate < labels.load(v)) labels.combine(v, static_cast<Dist>(candidate));
        }
      });
    });
  };
  const auto* in_weights = std::get_if<std::vector<std::uint32_t>>(&g.in().weights);
  const std::uint32_t* in_weight = in_weights != nullptr ? in_weights->data() : nullptr;
  // The same offers as relax(), taken by their destinations: the round's vertices are the frontier's bits.
  auto pull = [&] {
    engine.pull([&](local_t v, std::span<const local_t> sources, edge_t first) {
      std::uint64_t best = dist[v];
      for (std::size_t i = 0; i < sources.size(); ++i) {
        if (!frontier.contains(sources[i])) continue;
        const std::uint64_t candidate = std::uint64_t{dist.load(sources[i])} + in_weight[first + i];
        if constexpr (sizeof(Dist) < sizeof(std::uint64_t)) {
          if (candidate >= kFar) {
            too_far.store(true, std::memory_order_relaxed);
            continue;
          }
        }
        best = std::min(best, candidate);
      }
      if (best < dist[v]) dist.set_exclusive(v, static_cast<Dist>(best));
    });
  };
  const std::uint64_t edges = options.direction == Direction::automatic ? engine.sum_all(std::uint64_t{g.edges()}) : 0;
  for (;;) {
    take_bucket();
    if (!engine.next_round(frontier)) {
      // Bucket empty everywhere: move to the first one holding a pending vertex on any rank.
      // Agreed here too: a distance too far for Dist (on any rank) ends this run everywhere.
      std::uint64_t first = 0;
      const bool any = first_pending(first);
      const double next = engine.min_all(too_far.load(std::memory_order_relaxed) ? -1.0
                                         : any                                   ? static_cast<double>(first)
                                                                                 : INFINITY);
      if (next < 0) return false;
      if (std::isinf(next)) break;
      bucket = static_cast<std::uint64_t>(next);
      continue;
    }
    if (pulls_this_round(engine, frontier, options.direction, edges))
      pull();
    else
      relax();
    // Alone (Engine::next_level), this rank goes on through its own buckets while its updates
    // stay here. Its buckets then run ahead of the others' pending vertices, which this rank's
    // labels cannot depend on before they travel: the distances are the same.
    while (!too_far.load(std::memory_order_relaxed) && engine.stays_here(dist)) {
      file_improved();
      take_bucket();
      std::uint64_t active = frontier.prepare();
      if (active == 0) {  // this rank's next bucket
        if (!first_pending(bucket)) break;
        take_bucket();
        active = frontier.prepare();
      }
      engine.count_level(active);
      relax();
    }
    engine.sync(dist);
    file_improved();
  }
  result.resize(g.masters());
  for (local_t v = 0; v < g.masters(); ++v) result[v] = dist[v] == kFar ? kUnreached : dist[v];
  return true;
}

}  // namespace

std::vector<std::uint64_t> sssp(Engine& engine, const SsspOptions& options) {
  const dist::LocalGraph& g = engine.graph();
  if (options.source >= g.global_vertices())
    throw InputError(fmt::format("sssp: source {} is not a vertex (the graph has {}); pick a smaller --source",
                                 options.source, g.global_vertices()));
  const auto* weights = std::get_if<std::vector<std::uint32_t>>(&g.out().weights);
  // Decided together, so that every rank throws or none does (a rank without edges needs none).
  const bool weighted_here = weights != nullptr || g.edges() == 0;
  if (engine.sum_all(std::uint64_t{weighted_here ? 0u : 1u}) != 0)
    throw InputError("sssp: the graph needs uint32 edge weights (generate with weights or read a weighted file)");
  const std::uint32_t* weight = weights != nullptr ? weights->data() : nullptr;
  if (options.direction == Direction::pull && !g.has_in_edges())
    throw Error("sssp: --direction pull needs the graph partitioned with in-edges");

  std::vector<std::uint64_t> result;
  if (!shortest_distances<std::uint32_t>(engine, options, weight, result))
    shortest_distances<std::uint64_t>(engine, options, weight, result);
  return result;
}

}  // namespace courier::algo
