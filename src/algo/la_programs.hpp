#pragma once
// The algorithms as programs of the la engine's matrix computing model (la/model.hpp): what
// Broadcast makes of a vertex's value, the semiring Combine runs, and what Apply makes of the
// combined y. Each equals the sequential reference of its algorithm.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "courier/graph/reference/unreached.hpp"
#include "courier/graph/types.hpp"
#include "courier/la/model.hpp"
#include "courier/la/semiring.hpp"

namespace courier::algo::la_programs {

using graph::vertex_t;
using la::Totals;

// Levels from a source: the frontier's level, smallest over in-neighbours, plus one. Every x of an
// iteration is that level and a reached vertex keeps its level, so the model may pull a tile
// instead (PullsAny): an unreached row stops at its first in-neighbour in the frontier.
struct Bfs {
  using S = la::MinSecond;
  using V = std::uint64_t;
  static constexpr bool stationary = false;
  vertex_t source;
  V initial(vertex_t v) const { return v == source ? 0 : graph::reference::kUnreached; }
  bool initially_active(vertex_t v) const { return v == source; }
  void account(vertex_t, const V&, std::uint32_t, Totals&) const {}
  S::X broadcast(vertex_t, const V& level, std::uint32_t, const Totals&) const { return level; }
  bool apply(vertex_t, S::Y y, V& level, std::uint32_t, const Totals&, Totals&) const {
    if (level != graph::reference::kUnreached || y == S::identity) return false;
    level = y + 1;
    return true;
  }
  bool settled(const V& level) const { return level != graph::reference::kUnreached; }
  bool more(unsigned, double changed, const Totals&) const { return changed > 0; }
};

// What cc and sssp share: a vertex takes the smallest value its active in-neighbours offer, and
// is active again when that lowered it.
template <class Semiring>
struct Lowering {
  using S = Semiring;
  using V = std::uint64_t;
  static constexpr bool stationary = false;
  void account(vertex_t, const V&, std::uint32_t, Totals&) const {}
  typename S::X broadcast(vertex_t, const V& value, std::uint32_t, const Totals&) const { return value; }
  bool apply(vertex_t, typename S::Y y, V& value, std::uint32_t, const Totals&, Totals&) const {
    if (y >= value) return false;
    value = y;
    return true;
  }
  bool more(unsigned, double changed, const Totals&) const { return changed > 0; }
};

// Weakly connected components: the smallest label over neighbours (the engine adds every edge's
// reverse), until no label falls. A label is always a vertex of the component no larger than its
// own, so any labels reached on part of the edges are a valid start for all of them: it runs on
// the tiles' samples first (la/model.hpp). Labels are vertices, so they jump: a vertex hooks its
// label to what it is lowered to, and takes its label's label (FastSV).
struct Cc : Lowering<la::MinSecond> {
  static constexpr bool samples_first = true;
  static constexpr bool jumps = true;
  V initial(vertex_t v) const { return v; }
  bool initially_active(vertex_t) const { return true; }
};

// Distances from a source over uint32 weights: Bellman-Ford over the active vertices, in buckets
// of `delta` (la/model.hpp's Buckets; 0: none), as the vertex engine's delta-stepping.
struct Sssp : Lowering<la::MinPlus> {
  vertex_t source;
  std::uint64_t delta = 0;
  std::uint64_t bucket_width() const { return delta; }
  V initial(vertex_t v) const { return v == source ? 0 : graph::reference::kUnreached; }
  bool initially_active(vertex_t v) const { return v == source; }
};

// One product y = A x with x given: a single iteration whose Apply keeps y. (The engine turns the
// edges around, so that y[u] sums over u's out-edges as spmv's A[u][v] asks.)
template <class X>
struct Product {
  using S = la::PlusTimes;
  using V = double;
  static constexpr bool stationary = true;
  X x;  // x(v), a function of the vertex
  V initial(vertex_t v) const { return x(v); }
  bool initially_active(vertex_t) const { return true; }
  void account(vertex_t, const V&, std::uint32_t, Totals&) const {}
  S::X broadcast(vertex_t, const V& value, std::uint32_t, const Totals&) const { return value; }
  bool apply(vertex_t, S::Y y, V& value, std::uint32_t, const Totals&, Totals&) const {
    value = y;
    return false;
  }
  bool more(unsigned iterations, double, const Totals&) const { return iterations == 0; }
};

// PageRank as the reference defines it: rank / out-degree flows along each out-edge, the rank of
// vertices without out-edges is spread over all, damping d, initial rank 1/n. Totals: slot 1 the
// L1 change of the last step, slot 2 the rank held by vertices without out-edges. Shares (x) are
// doubles, or floats (la::PlusSecondFloat) where the vertex engine's rule allows them
// (pagerank_float_shares: fixed steps, or a tolerance far above the rounding's drift).
template <class Semiring>
struct Pagerank {
  using S = Semiring;
  using V = double;
  static constexpr bool stationary = true;
  double n;
  double damping;
  double tolerance;
  unsigned max_iterations;
  V initial(vertex_t) const { return 1.0 / n; }
  bool initially_active(vertex_t) const { return true; }
  void account(vertex_t, const V& rank, std::uint32_t out_degree, Totals& totals) const {
    if (out_degree != 0) totals[2] += rank;
  }
  typename S::X broadcast(vertex_t, const V& rank, std::uint32_t out_degree, const Totals&) const {
    return static_cast<typename S::X>(out_degree == 0 ? 0.0 : rank / static_cast<double>(out_degree));
  }
  double base = 0;  // what every vertex gets besides its in-neighbours' shares, this step (prepare)
  void prepare(const Totals& last) {
    const double dangling = std::max(0.0, 1.0 - last[2]);
    base = (1.0 - damping) / n + damping * dangling / n;
  }
  bool apply(vertex_t, typename S::Y y, V& rank, std::uint32_t out_degree, const Totals&, Totals& next) const {
    const double next_rank = base + damping * y;
    next[1] += std::abs(next_rank - rank);
    rank = next_rank;
    if (out_degree != 0) next[2] += next_rank;
    return false;
  }
  bool more(unsigned iterations, double, const Totals& totals) const {
    return iterations == 0 ? max_iterations > 0 : iterations < max_iterations && !(totals[1] < tolerance);
  }
  // A tolerance measures every vertex's change; without one only the last step's values count.
  bool needs_sinks(unsigned iteration) const { return tolerance > 0 || iteration + 1 >= max_iterations; }
  // A source (no in-edges) gets no shares: its rank is 1/n, then each step's base, the same for
  // every source, and its x that over its out-degree. So its entries need not be multiplied, with
  // a tolerance too: its change is base against base, no product needed (la/model.hpp).
  double sources_initially() const { return 1.0 / n; }
  double sources_after(const Totals& last) const {
    Pagerank next = *this;
    next.prepare(last);
    return next.base;
  }
};

}  // namespace courier::algo::la_programs
