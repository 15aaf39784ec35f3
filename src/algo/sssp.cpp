// Single-source shortest paths: data-driven Bellman-Ford, or delta-stepping when options.delta
// is set. Distance is a min-label read at sources and written at destinations.
// Distances are first kept in 32 bits, as GAP keeps them: half the bytes for the random reads
// of the relaxations. A distance that would not fit is noticed (never stored), the run stops at
// the next bucket change and is repeated in 64 bits, so the result is always the exact one.
#include "courier/algo/sssp.hpp"

#include <atomic>
#include <cmath>
#include <fmt/format.h>
#include <limits>

#include "courier/core/error.hpp"
#include "courier/graph/reference/unreached.hpp"
#include "courier/sync/reduction.hpp"

namespace courier::algo {

using namespace courier::vertex;
using graph::reference::kUnreached;

namespace {

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
  Frontier pending(g.proxies());  // improved, not yet relaxed
  if (auto s = g.local_id(options.source)) {
    dist[*s] = 0;
    pending.add(*s);
  }
  const std::uint64_t delta = options.delta == 0 ? kUnreached : options.delta;
  std::uint64_t bucket_end = delta;  // this bucket holds distances below it
  Frontier frontier(g.proxies());
  std::atomic<bool> too_far{false};
  // The round's work: pending vertices in the current bucket (all of them for Bellman-Ford).
  auto take_bucket = [&] {
    frontier.clear();
    pending.prepare();
    engine.for_each_active(pending, [&](local_t v) {
      if (dist[v] < bucket_end) {
        frontier.add(v);
        pending.bits().reset(v);
      }
    });
  };
  // The distance of the closest pending vertex here, or infinity.
  auto closest_pending = [&] {
    double closest = INFINITY;
    pending.bits().for_each(
        [&](std::size_t v) { closest = std::min(closest, static_cast<double>(dist[static_cast<local_t>(v)])); });
    return closest;
  };
  auto bucket_after = [&](double closest) { return (static_cast<std::uint64_t>(closest) / delta + 1) * delta; };
  // u's distance is read once: if another thread lowers it meanwhile, u is marked and relaxes
  // again with the lower one, so the distances come out the same.
  auto relax = [&] {
    engine.for_each_active(frontier, [&](local_t u) {
      const std::uint64_t from = dist.load(u);
      for (edge_t e = out.offsets[u], end = out.offsets[u + 1]; e < end; ++e) {
        const local_t v = out.targets[e];
        const std::uint64_t candidate = from + weight[e];
        if constexpr (sizeof(Dist) < sizeof(std::uint64_t)) {
          if (candidate >= kFar) {
            too_far.store(true, std::memory_order_relaxed);
            continue;
          }
        }
        if (candidate < dist.load(v)) dist.combine(v, static_cast<Dist>(candidate));
      }
    });
  };
  for (;;) {
    take_bucket();
    if (!engine.next_round(frontier)) {
      // Bucket empty everywhere: move to the one holding the closest pending vertex, if any.
      // Agreed here too: a distance too far for Dist (on any rank) ends this run everywhere.
      const double closest = engine.min_all(too_far.load(std::memory_order_relaxed) ? -1.0 : closest_pending());
      if (closest < 0) return false;
      if (std::isinf(closest)) break;
      bucket_end = bucket_after(closest);
      continue;
    }
    relax();
    // Alone (Engine::next_level), this rank goes on through its own buckets while its updates
    // stay here. Its buckets then run ahead of the others' pending vertices, which this rank's
    // labels cannot depend on before they travel: the distances are the same.
    while (!too_far.load(std::memory_order_relaxed) && engine.stays_here(dist)) {
      pending.bits().add_all(dist.updated());
      dist.updated().clear();
      take_bucket();
      std::uint64_t active = frontier.prepare();
      if (active == 0) {  // this rank's next bucket
        const double closest = closest_pending();
        if (std::isinf(closest)) break;
        bucket_end = bucket_after(closest);
        take_bucket();
        active = frontier.prepare();
      }
      engine.count_level(active);
      relax();
    }
    engine.sync(dist);
    pending.bits().add_all(dist.updated());
    dist.updated().clear();
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

  std::vector<std::uint64_t> result;
  if (!shortest_distances<std::uint32_t>(engine, options, weight, result))
    shortest_distances<std::uint64_t>(engine, options, weight, result);
  return result;
}

}  // namespace courier::algo
