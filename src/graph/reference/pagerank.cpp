#include "courier/graph/reference/pagerank.hpp"

#include <cmath>
#include <utility>

#include "courier/core/cancel.hpp"

namespace courier::graph::reference {

PagerankResult pagerank(const Csr& graph, const PagerankOptions& options) {
  const vertex_t n = graph.num_vertices();
  PagerankResult result;
  if (n == 0) {
    result.converged = true;
    return result;
  }
  const double d = options.damping;
  result.rank.assign(n, 1.0 / static_cast<double>(n));
  std::vector<double> next(n);
  for (unsigned step = 1; step <= options.max_iterations; ++step) {
    stop_if_cancelled();
    // Push: u hands rank/out_degree to each out-neighbour; vertices without out-edges hand their
    // rank to everybody, which is the same for all and folded into `base`.
    double dangling = 0;
    std::fill(next.begin(), next.end(), 0.0);
    for (vertex_t u = 0; u < n; ++u) {
      const auto out = graph.neighbors(u);
      if (out.empty()) {
        dangling += result.rank[u];
        continue;
      }
      const double share = result.rank[u] / static_cast<double>(out.size());
      for (vertex_t v : out) next[v] += share;
    }
    const double base = (1.0 - d) / static_cast<double>(n) + d * dangling / static_cast<double>(n);
    double change = 0;
    for (vertex_t v = 0; v < n; ++v) {
      next[v] = base + d * next[v];
      change += std::abs(next[v] - result.rank[v]);
    }
    std::swap(next, result.rank);
    result.iterations = step;
    result.last_change = change;
    if (change < options.tolerance) {
      result.converged = true;
      break;
    }
  }
  return result;
}

}  // namespace courier::graph::reference
