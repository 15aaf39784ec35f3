// PageRank by pull. Three labels: out-degree (summed from every proxy's edges into the master),
// each master's share rank/out-degree (read at edge sources), and the sum each vertex pulls over
// its in-edges (written at destinations, summed into the master). The dangling mass is a global
// sum per step.
#include "courier/algo/pagerank.hpp"

#include <cmath>

#include "courier/core/error.hpp"
#include "courier/sync/reduction.hpp"

namespace courier::algo {

using namespace courier::engine;

PagerankResult pagerank(Engine& engine, const PagerankOptions& options) {
  const dist::LocalGraph& g = engine.graph();
  if (!g.has_in_edges()) throw Error("pagerank: pull needs the graph partitioned with in-edges");
  PagerankResult result;
  const double n = static_cast<double>(g.global_vertices());
  if (g.global_vertices() == 0) {
    result.converged = true;
    return result;
  }
  const double d = options.damping;

  Field<std::uint64_t, sync::Sum> degree(g, 0, {At::source, At::master});
  engine.for_each_vertex(g.proxies(), [&](local_t v) {
    if (g.out().degree(v) != 0) degree.set(v, g.out().degree(v));
  });
  engine.sync(degree);
  Field<double, sync::Sum> share(g, 0.0, {At::master, At::source});
  Field<double, sync::Sum> pulled(g, 0.0, {At::destination, At::master});
  result.rank.assign(g.masters(), 1.0 / n);
  // When no destination can be a mirror (one rank, or an incoming edge cut) the sums need no
  // reduce, so each master's new rank is computed as soon as its sum is, without the pulled
  // array's extra pass (the same arithmetic, so the same ranks).
  const bool fused = !engine.plan_for(pulled.access()).reduce;

  bool more = true;
  while (more && engine.next_round(1)) {
    const double dangling = engine.sum_all(engine.sum_over<double>(g.masters(), [&](local_t v) {
      if (degree[v] == 0) return result.rank[v];
      share.set(v, result.rank[v] / static_cast<double>(degree[v]));
      return 0.0;
    }));
    engine.sync(share);
    share.updated().clear();
    const double base = (1.0 - d) / n + d * dangling / n;
    const double* contribution = share.values().data();
    const auto pull_sum = [&](local_t v) {
      double sum = 0;
      for (local_t u : g.in().neighbors(v)) sum += contribution[u];
      return sum;
    };
    double local_change = 0;
    if (fused) {
      // Every destination is a master: pull and update in one pass over the in-edges.
      local_change = engine.sum_over<double>(g.masters(), [&](local_t v) {
        const double next = base + d * pull_sum(v);
        const double delta = std::abs(next - result.rank[v]);
        result.rank[v] = next;
        return delta;
      });
    } else {
      engine.for_each_vertex(g.proxies(), [&](local_t v) {
        const double sum = pull_sum(v);
        pulled[v] = sum;
        if (sum != 0) pulled.mark(v);
      });
      engine.sync(pulled);
      pulled.updated().clear();
      local_change = engine.sum_over<double>(g.masters(), [&](local_t v) {
        const double next = base + d * pulled[v];
        const double delta = std::abs(next - result.rank[v]);
        result.rank[v] = next;
        return delta;
      });
    }
    const double change = engine.sum_all(local_change);
    ++result.iterations;
    result.last_change = change;
    result.converged = change < options.tolerance;
    more = !result.converged && result.iterations < options.max_iterations;
  }
  return result;
}

}  // namespace courier::algo
