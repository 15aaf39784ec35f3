// k-core decomposition by synchronous peeling. Labels: degree (each proxy's edges summed into
// the master), `removed` (set at masters, read where their edges are), and `lost` (neighbours
// removed this round, counted at destinations and summed into the master).
#include "courier/algo/kcore.hpp"

#include <cmath>

#include "courier/sync/reduction.hpp"

namespace courier::algo {

using namespace courier::vertex;

std::vector<std::uint32_t> kcore(Engine& engine) {
  const dist::LocalGraph& g = engine.graph();
  Field<std::uint64_t, sync::Sum> degree(g, 0, {At::source, At::master});
  engine.for_each_vertex(g.proxies(), [&](local_t v) {
    if (g.out().degree(v) != 0) degree.set(v, g.out().degree(v));
  });
  engine.sync(degree);
  Field<std::uint8_t, sync::LogicalOr> removed(g, 0, {At::master, At::source}, Track::always);
  Field<std::uint64_t, sync::Sum> lost(g, 0, {At::destination, At::master});
  std::vector<std::uint8_t> alive(g.masters(), 1);
  std::vector<std::uint32_t> core(g.masters(), 0);
  Frontier frontier(g.proxies());

  std::uint64_t k = 0;
  for (;;) {
    // Remove the masters with at most k neighbours left.
    const std::uint64_t peeled = engine.sum_over<std::uint64_t>(g.masters(), [&](local_t v) -> std::uint64_t {
      if (!alive[v] || degree[v] > k) return 0;
      alive[v] = 0;
      core[v] = static_cast<std::uint32_t>(k);
      removed.set(v, 1);
      return 1;
    });
    if (!engine.next_round(peeled)) {
      // Nothing left at k: go to the smallest degree still alive, or stop.
      double smallest = INFINITY;
      for (local_t v = 0; v < g.masters(); ++v)
        if (alive[v]) smallest = std::min(smallest, static_cast<double>(degree[v]));
      smallest = engine.min_all(smallest);
      if (std::isinf(smallest)) break;
      k = std::max(k + 1, static_cast<std::uint64_t>(smallest));
      continue;
    }
    engine.sync(removed);
    frontier.take(removed.updated());
    frontier.prepare();
    engine.push(frontier, [&](local_t, local_t v, edge_t) {
      std::atomic_ref<std::uint64_t>(lost[v]).fetch_add(1, std::memory_order_relaxed);
      lost.mark(v);
    });
    engine.sync(lost);
    engine.for_each_vertex(g.proxies(), [&](local_t v) {
      if (v < g.masters()) degree[v] -= lost[v];
      lost[v] = 0;
    });
    lost.updated().clear();
  }
  return core;
}

}  // namespace courier::algo
