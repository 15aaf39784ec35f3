#include "bc_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <queue>
#include <utility>

#include "courier/core/cancel.hpp"
#include "courier/core/error.hpp"

namespace courier::algo::bc_check {

namespace {

using graph::vertex_t;

constexpr std::uint64_t kFar = std::numeric_limits<std::uint64_t>::max();

// Distances and path counts from s; `order` lists the reached vertices by distance.
struct Paths {
  std::vector<std::uint64_t> dist;
  std::vector<double> sigma;
  std::vector<vertex_t> order;
};

// Weight of v's i-th out-edge: 1 unweighted.
struct Weights {
  const graph::Csr& g;
  bool weighted;
  std::uint64_t operator()(vertex_t v, std::size_t i) const { return weighted ? g.weights_as<std::uint32_t>(v)[i] : 1; }
};

// Dijkstra (weighted) or BFS (by edges), then counts in order of distance: with positive weights
// every predecessor on a shortest path is nearer, so it is counted before its successors.
Paths paths_from(const graph::Csr& g, vertex_t s, bool weighted) {
  const vertex_t n = g.num_vertices();
  const Weights weight{g, weighted};
  Paths p{std::vector<std::uint64_t>(n, kFar), std::vector<double>(n, 0.0), {}};
  p.dist[s] = 0;
  if (weighted) {
    using Item = std::pair<std::uint64_t, vertex_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
    queue.push({0, s});
    while (!queue.empty()) {
      const auto [d, v] = queue.top();
      queue.pop();
      if (d != p.dist[v]) continue;
      p.order.push_back(v);
      const auto targets = g.neighbors(v);
      for (std::size_t i = 0; i < targets.size(); ++i)
        if (d + weight(v, i) < p.dist[targets[i]]) {
          p.dist[targets[i]] = d + weight(v, i);
          queue.push({p.dist[targets[i]], targets[i]});
        }
    }
  } else {
    p.order.push_back(s);
    for (std::size_t k = 0; k < p.order.size(); ++k)
      for (vertex_t w : g.neighbors(p.order[k]))
        if (p.dist[w] == kFar) {
          p.dist[w] = p.dist[p.order[k]] + 1;
          p.order.push_back(w);
        }
  }
  // Dijkstra may settle a vertex twice only with stale entries, skipped above; order is by distance.
  p.sigma[s] = 1;
  for (vertex_t v : p.order) {
    const auto targets = g.neighbors(v);
    for (std::size_t i = 0; i < targets.size(); ++i)
      if (p.dist[v] + weight(v, i) == p.dist[targets[i]]) p.sigma[targets[i]] += p.sigma[v];
  }
  return p;
}

// SplitMix64, as the sampled sources use: the checked vertices are the same on every build.
std::uint64_t next_random(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

void require_positive_weights(const graph::Csr& g) {
  if (g.weight_type() != graph::WeightType::u32)
    throw InputError(
        "bc --weighted: the graph needs uint32 edge weights (generate with --weights or read a weighted "
        "file)");
  const auto w = g.weights_as<std::uint32_t>();
  if (std::ranges::find(w, 0u) != w.end())
    throw InputError(
        "bc --weighted: an edge weighs 0, and shortest paths through zero-weight edges have no finite "
        "count; give every edge a positive weight, or drop --weighted");
}

std::vector<double> weighted_reference(const graph::Csr& g, const std::vector<vertex_t>& sources) {
  require_positive_weights(g);
  const vertex_t n = g.num_vertices();
  const Weights weight{g, true};
  std::vector<double> centrality(n, 0.0), delta(n);
  for (const vertex_t s : sources) {
    stop_if_cancelled();
    if (s >= n) continue;
    const Paths p = paths_from(g, s, true);
    std::fill(delta.begin(), delta.end(), 0.0);
    for (auto it = p.order.rbegin(); it != p.order.rend(); ++it) {
      const vertex_t v = *it;
      const auto targets = g.neighbors(v);
      for (std::size_t i = 0; i < targets.size(); ++i)
        if (p.dist[v] + weight(v, i) == p.dist[targets[i]])
          delta[v] += p.sigma[v] / p.sigma[targets[i]] * (1 + delta[targets[i]]);
      if (v != s) centrality[v] += delta[v];
    }
  }
  return centrality;
}

DefinitionCheck by_definition(const graph::Csr& g, const std::vector<vertex_t>& sources, bool weighted,
                              const std::vector<double>& centrality) {
  const vertex_t n = g.num_vertices();
  DefinitionCheck check;
  if (n == 0 || centrality.size() != n) return check;
  // Each checked vertex costs a pass over the vertices per source and a search's arrays: at most
  // about 3e8 steps and 8M entries in all.
  const double per_vertex = static_cast<double>(sources.size()) * n;
  const auto affordable = static_cast<std::size_t>(
      std::min({16.0, 3e8 / std::max(1.0, per_vertex), 8e6 / static_cast<double>(n), static_cast<double>(n)}));
  if (affordable == 0) return check;
  std::vector<vertex_t> checked{
      static_cast<vertex_t>(std::max_element(centrality.begin(), centrality.end()) - centrality.begin())};
  std::vector<bool> taken(n, false);
  taken[checked[0]] = true;
  std::uint64_t state = 19;
  for (std::size_t tries = 0; checked.size() < affordable && tries < 64 * affordable; ++tries) {
    const vertex_t t = next_random(state) % n;
    if (!taken[t]) taken[t] = true, checked.push_back(t);
  }
  std::vector<Paths> from_checked;
  for (vertex_t t : checked) from_checked.push_back(paths_from(g, t, weighted));
  std::vector<double> dependency(checked.size(), 0.0);
  for (const vertex_t s : sources) {
    if (s >= n) continue;
    const Paths from_s = paths_from(g, s, weighted);
    for (std::size_t k = 0; k < checked.size(); ++k) {
      const vertex_t t = checked[k];
      if (t == s || from_s.dist[t] == kFar) continue;
      const Paths& from_t = from_checked[k];
      for (vertex_t x : from_t.order)  // the vertices t reaches
        if (x != s && x != t && from_s.dist[x] == from_s.dist[t] + from_t.dist[x])
          dependency[k] += from_s.sigma[t] * from_t.sigma[x] / from_s.sigma[x];
    }
  }
  check.vertices = checked.size();
  for (std::size_t k = 0; k < checked.size() && check.mismatch.empty(); ++k) {
    const double got = centrality[checked[k]], want = dependency[k];
    if (std::abs(got - want) > 1e-6 * std::max(1.0, std::abs(want)))
      check.mismatch = fmt::format(
          "vertex {}: centrality {} where its pair dependencies from the definition add up "
          "to {}",
          checked[k], got, want);
  }
  return check;
}

}  // namespace courier::algo::bc_check
