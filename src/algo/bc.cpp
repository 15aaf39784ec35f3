// Betweenness centrality (Brandes) on the vertex engine, one source after another, in three
// phases of rounds, each label declared where it is written and read so the engine moves it:
// (By edges, phases 1 and 2 run together, level by level: see levels().)
//  1. distances: data-driven Bellman-Ford (by edges: BFS levels; weighted: uint32 weights), the
//     distance written at destinations and read at either end, so every proxy knows its vertex's
//     distance and each edge stored here can tell whether it lies on a shortest path (the DAG);
//  2. path counts sigma, in Kahn's order over the DAG: a vertex's count is final once every DAG
//     predecessor has pushed its own (by edges that is level by level; weighted, a vertex waits
//     for its last predecessor however far back it is). Masters count the predecessors that have
//     pushed against the DAG in-edges they were told of, then broadcast the final count;
//  3. dependencies delta, over the rounds of phase 2 backwards: each vertex sums
//     (1 + delta[w]) / sigma[w] over its DAG out-edges (every successor w became final in a later
//     round, so is done), the sums meet at the master, which makes delta and its own share.
#include "courier/algo/bc.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <numeric>

#include "courier/core/error.hpp"
#include "courier/sync/reduction.hpp"
#include "courier/vertex/gather.hpp"

namespace courier::algo {

using namespace courier::vertex;

namespace {

constexpr std::uint64_t kFar = std::numeric_limits<std::uint64_t>::max();

// Appends the active vertices of `frontier` (prepared) to `order`.
void append_active(const Frontier& frontier, std::vector<local_t>& order) {
  if (frontier.sparse()) {
    order.insert(order.end(), frontier.list().begin(), frontier.list().end());
    return;
  }
  frontier.bits().for_each(0, frontier.size(), [&](std::size_t v) { order.push_back(static_cast<local_t>(v)); });
}

// SplitMix64: a fixed, portable stream, so that every build draws the same sources.
std::uint64_t next_random(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

class Brandes {
 public:
  Brandes(Engine& engine, bool weighted, const std::uint32_t* weight)
      : engine_(engine),
        g_(engine.graph()),
        weighted_(weighted),
        weight_(weight),
        dist_(g_, kFar, {At::destination, At::any}, Track::always),
        pending_(g_, 0, {At::destination, At::master}),
        arrived_(g_, 0, {At::destination, At::master}, Track::always),
        arriving_(g_, 0.0, {At::destination, At::master}),
        sigma_(g_, 0.0, {At::master, At::source}, Track::always),
        part_(g_, 0.0, {At::source, At::master}),
        share_(g_, 0.0, {At::master, At::destination}),
        frontier_(g_.proxies()),
        centrality_(g_.masters(), 0.0) {}

  void add_source(vertex_t source) {
    reset();
    const std::optional<local_t> s = g_.local_id(source);
    if (!weighted_) {  // decided alike on every rank (a rank without edges has no weights)
      levels(s);
    } else {
      distances(s);
      count_paths(s);
    }
    accumulate(source);
  }

  std::vector<double> result() { return std::move(centrality_); }

 private:
  std::uint64_t weight(edge_t e) const { return weight_ == nullptr ? 1 : weight_[e]; }
  // Whether out-edge e = (u, v) stored here lies on a shortest path from the source.
  bool on_dag(local_t u, local_t v, edge_t e) const { return dist_[u] != kFar && dist_[u] + weight(e) == dist_[v]; }

  void reset() {
    std::ranges::fill(dist_.values(), kFar);
    std::ranges::fill(pending_.values(), 0u);
    std::ranges::fill(arrived_.values(), 0u);
    std::ranges::fill(arriving_.values(), 0.0);
    std::ranges::fill(sigma_.values(), 0.0);
    std::ranges::fill(part_.values(), 0.0);
    std::ranges::fill(share_.values(), 0.0);
    frontier_.clear();
    order_.clear();
    round_begin_.assign(1, 0);
  }

  // By edges, phases 1 and 2 together, level by level: a vertex reached in round L (from level L)
  // has all its DAG predecessors in level L, so its count is final when that round's sums meet.
  // A proxy's distance is never stale (synchronised everywhere), so a push to a proxy at a
  // distance up to L would go back or sideways and is skipped.
  void levels(std::optional<local_t> s) {
    if (s) {
      dist_[*s] = 0;
      sigma_[*s] = 1;
      frontier_.add(*s);
    }
    for (std::uint64_t level = 0; engine_.next_round(frontier_); ++level) {
      append_active(frontier_, order_);
      round_begin_.push_back(order_.size());
      engine_.push(frontier_, [&](local_t u, local_t v, edge_t) {
        if (dist_.load(v) <= level) return;
        dist_.combine(v, level + 1);
        arriving_.combine(v, sigma_[u]);
      });
      engine_.sync(dist_);
      engine_.sync(arriving_);
      arriving_.updated().clear();
      dist_.updated().for_each([&](std::size_t i) {
        const auto v = static_cast<local_t>(i);
        if (g_.is_master(v) && dist_[v] == level + 1) sigma_.set(v, arriving_[v]);
      });
      dist_.updated().clear();
      engine_.sync(sigma_);
      frontier_.take(sigma_.updated());
    }
  }

  void distances(std::optional<local_t> s) {
    const auto& out = g_.out();
    if (s) {
      dist_[*s] = 0;
      frontier_.add(*s);
    }
    while (engine_.next_round(frontier_)) {
      engine_.for_each_active(frontier_, [&](local_t u) {
        const std::uint64_t from = dist_.load(u);
        for (edge_t e = out.offsets[u], end = out.offsets[u + 1]; e < end; ++e) {
          const local_t v = out.targets[e];
          if (from + weight(e) < dist_.load(v)) dist_.combine(v, from + weight(e));
        }
      });
      engine_.sync(dist_);
      frontier_.take(dist_.updated());
    }
  }

  void count_paths(std::optional<local_t> s) {
    const auto& out = g_.out();
    // Each master learns how many DAG edges come in (from every rank's proxies).
    engine_.for_each_vertex(g_.proxies(), [&](local_t u) {
      for (edge_t e = out.offsets[u], end = out.offsets[u + 1]; e < end; ++e)
        if (on_dag(u, out.targets[e], e)) pending_.combine(out.targets[e], 1);
    });
    engine_.sync(pending_);
    pending_.updated().clear();
    if (s) {
      sigma_[*s] = 1;
      frontier_.add(*s);
    }
    while (engine_.next_round(frontier_)) {
      append_active(frontier_, order_);
      round_begin_.push_back(order_.size());
      engine_.push(frontier_, [&](local_t u, local_t v, edge_t e) {
        if (!on_dag(u, v, e)) return;
        arriving_.combine(v, sigma_[u]);
        arrived_.combine(v, 1);
      });
      engine_.sync(arriving_);
      arriving_.updated().clear();
      engine_.sync(arrived_);
      // Masters whose last DAG predecessor has pushed: their count is final.
      arrived_.updated().for_each([&](std::size_t i) {
        const auto v = static_cast<local_t>(i);
        if (g_.is_master(v) && arrived_[v] == pending_[v]) sigma_.set(v, arriving_[v]);
      });
      arrived_.updated().clear();
      engine_.sync(sigma_);
      frontier_.take(sigma_.updated());
    }
  }

  void accumulate(vertex_t source) {
    const auto& out = g_.out();
    for (std::size_t round = round_begin_.size() - 1; round-- > 0;) {
      const std::span<const local_t> done(order_.data() + round_begin_[round], order_.data() + round_begin_[round + 1]);
      engine_.next_round(done.size());
      engine_.for_each_vertex(static_cast<local_t>(done.size()), [&](local_t i) {
        const local_t v = done[i];
        double sum = 0;
        for (edge_t e = out.offsets[v], end = out.offsets[v + 1]; e < end; ++e)
          if (on_dag(v, out.targets[e], e)) sum += share_[out.targets[e]];
        if (sum != 0) part_.combine(v, sum);
      });
      engine_.sync(part_);
      part_.updated().clear();
      engine_.for_each_vertex(static_cast<local_t>(done.size()), [&](local_t i) {
        const local_t v = done[i];
        if (!g_.is_master(v)) return;
        const double delta = sigma_[v] * part_[v];
        part_[v] = 0;
        if (g_.global_id(v) != source) centrality_[v] += delta;
        share_.set(v, (1 + delta) / sigma_[v]);
      });
      engine_.sync(share_);
      share_.updated().clear();
    }
  }

  Engine& engine_;
  const dist::LocalGraph& g_;
  bool weighted_;
  const std::uint32_t* weight_;  // none: every edge weighs 1
  Field<std::uint64_t, sync::Min> dist_;
  Field<std::uint32_t, sync::Sum> pending_;  // DAG in-edges (masters)
  Field<std::uint32_t, sync::Sum> arrived_;  // DAG predecessors that have pushed (masters)
  Field<double, sync::Sum> arriving_;        // their path counts, summed (masters)
  Field<double, sync::Max> sigma_;           // final path counts, at every proxy that pushes
  Field<double, sync::Sum> part_;            // sum over DAG out-edges of successors' shares
  Field<double, sync::Max> share_;           // (1 + delta) / sigma, at every proxy edges reach
  Frontier frontier_;
  std::vector<local_t> order_;            // proxies by the round their path count became final
  std::vector<std::size_t> round_begin_;  // where each round starts in order_
  std::vector<double> centrality_;
};

}  // namespace

std::vector<bool> vertices_with_out_edges(Engine& engine) {
  const dist::LocalGraph& g = engine.graph();
  const vertex_t n = g.global_vertices();
  std::vector<std::uint64_t> mine((n + 63) / 64, 0);
  for (local_t v = 0; v < g.proxies(); ++v)
    if (g.out().degree(v) != 0) mine[g.global_id(v) / 64] |= std::uint64_t{1} << (g.global_id(v) % 64);
  const auto all = exchange_values(engine, std::vector<std::vector<std::uint64_t>>(engine.ranks(), mine));
  std::vector<bool> has(n, false);
  for (const auto& words : all)
    for (vertex_t v = 0; v < n; ++v)
      if ((words[v / 64] >> (v % 64)) & 1) has[v] = true;
  return has;
}

std::vector<vertex_t> sample_sources(vertex_t vertices, const std::function<bool(vertex_t)>& has_out_edges,
                                     std::uint64_t count, std::uint64_t seed) {
  std::vector<vertex_t> candidates;
  for (vertex_t v = 0; v < vertices; ++v)
    if (has_out_edges(v)) candidates.push_back(v);
  if (count >= candidates.size()) return candidates;
  std::vector<bool> chosen(vertices, false);
  std::vector<vertex_t> sources;
  std::uint64_t state = seed;
  while (sources.size() < count) {
    const vertex_t v = next_random(state) % vertices;
    if (!has_out_edges(v) || chosen[v]) continue;
    chosen[v] = true;
    sources.push_back(v);
  }
  return sources;
}

std::vector<double> bc(Engine& engine, const BcOptions& options) {
  const dist::LocalGraph& g = engine.graph();
  const std::uint32_t* weight = nullptr;
  if (options.weighted) {
    const auto* weights = std::get_if<std::vector<std::uint32_t>>(&g.out().weights);
    // Decided together, so that every rank throws or none does (a rank without edges needs none).
    const bool weighted_here = weights != nullptr || g.edges() == 0;
    if (engine.sum_all(std::uint64_t{weighted_here ? 0u : 1u}) != 0)
      throw InputError(
          "bc --weighted: the graph needs uint32 edge weights (generate with --weights or read a "
          "weighted file)");
    if (weights != nullptr) weight = weights->data();
    const bool zero_here = weights != nullptr && std::ranges::find(*weights, 0u) != weights->end();
    if (engine.sum_all(std::uint64_t{zero_here ? 1u : 0u}) != 0)
      throw InputError(
          "bc --weighted: an edge weighs 0, and shortest paths through zero-weight edges have no "
          "finite count; give every edge a positive weight, or drop --weighted");
  }
  Brandes brandes(engine, options.weighted, weight);
  for (vertex_t s : options.sources)
    if (s < g.global_vertices()) brandes.add_source(s);
  return brandes.result();
}

}  // namespace courier::algo
