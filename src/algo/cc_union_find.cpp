// Connected components with few rounds: each rank joins its proxies with union-find over its own
// edges once; then every round gives each local component the smallest label any of its proxies
// has, and syncs labels so that components spread over several ranks agree.
// The local union-find skips work as Afforest does: join along the first few edges of every
// vertex, find the largest set by sampling, and visit the remaining edges only of vertices
// outside it (both directions when in-edges are there, so every edge with an end outside the
// largest set is seen; without in-edges, all the rest).
#include <atomic>
#include <limits>
#include <unordered_map>

#include "courier/algo/cc.hpp"
#include "courier/core/error.hpp"
#include "courier/sync/reduction.hpp"

namespace courier::algo {

using namespace courier::vertex;

namespace {

// A disjoint-set forest over local ids; roots are the smallest id of their set. Shared: the
// threads of a team join at once, lock-free (compare-and-swap); else one thread joins alone, with
// plain stores (a rank of one thread: cc at 2x1 ran 14% faster without a locked instruction per
// link).
template <bool Shared>
class LocalForest {
 public:
  explicit LocalForest(local_t n) : parent_(n) {
    for (local_t v = 0; v < n; ++v) parent_[v] = v;
  }
  local_t find(local_t v) {
    for (;;) {  // path halving
      local_t p = load(v);
      const local_t gp = load(p);
      if (p == gp) return p;
      if constexpr (Shared)
        std::atomic_ref<local_t>(parent_[v]).compare_exchange_weak(p, gp, std::memory_order_relaxed);
      else
        parent_[v] = gp;
      v = gp;
    }
  }
  void join(local_t a, local_t b) {
    for (;;) {
      a = find(a);
      b = find(b);
      if (a == b) return;
      if (a < b) std::swap(a, b);  // hang the larger root under the smaller
      if constexpr (!Shared) {
        parent_[a] = b;
        return;
      }
      local_t expected = a;
      if (std::atomic_ref<local_t>(parent_[a]).compare_exchange_strong(expected, b, std::memory_order_relaxed)) return;
    }
  }
  local_t root(local_t v) const { return parent_[v]; }  // after compress()
  void compress() {
    for (local_t v = 0; v < parent_.size(); ++v) parent_[v] = parent_[parent_[v]];
  }

 private:
  local_t load(local_t v) {
    if constexpr (Shared)
      return std::atomic_ref<local_t>(parent_[v]).load(std::memory_order_relaxed);
    else
      return parent_[v];
  }
  std::vector<local_t> parent_;
};

constexpr local_t kNoSet = UINT32_MAX;

// The most frequent root among a fixed sample of proxies (compressed forest).
template <class Forest>
local_t largest_set(Forest& forest, local_t proxies) {
  if (proxies == 0) return kNoSet;
  std::unordered_map<local_t, unsigned> seen;
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < 1024; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;  // xorshift: any fixed spread will do
    ++seen[forest.root(static_cast<local_t>(x % proxies))];
  }
  return std::max_element(seen.begin(), seen.end(), [](auto& a, auto& b) { return a.second < b.second; })->first;
}

template <class L, bool Shared>
std::vector<L> union_find_labels(Engine& engine) {
  const dist::LocalGraph& g = engine.graph();
  LocalForest<Shared> forest(g.proxies());
  const auto& out = g.out();
  constexpr edge_t kFirstEdges = 2;
  engine.for_each_vertex(g.proxies(), [&](local_t u) {
    for (edge_t e = out.offsets[u]; e < std::min(out.offsets[u + 1], out.offsets[u] + kFirstEdges); ++e)
      forest.join(u, out.targets[e]);
  });
  if (g.has_in_edges()) {
    const auto& in = g.in();
    engine.for_each_vertex(g.proxies() - g.masters(), [&](local_t i) {
      const local_t m = g.masters() + i;
      for (edge_t e = in.offsets[m]; e < std::min(in.offsets[m + 1], in.offsets[m] + kFirstEdges); ++e)
        forest.join(m, in.targets[e]);
    });
  }
  forest.compress();  // roots are smaller than their members, so one pass in id order suffices
  const local_t largest = g.has_in_edges() ? largest_set(forest, g.proxies()) : kNoSet;
  engine.for_each_vertex(g.proxies(), [&](local_t u) {
    if (largest != kNoSet && forest.find(u) == largest) return;
    for (edge_t e = out.offsets[u] + kFirstEdges; e < out.offsets[u + 1]; ++e) forest.join(u, out.targets[e]);
    if (largest != kNoSet)
      for (local_t w : g.in().neighbors(u)) forest.join(u, w);
  });
  forest.compress();
  if (engine.ranks() == 1) {
    // Every vertex is a master here, in id order, so each root -- its set's smallest id -- is
    // already the component's label: no round of labels.
    std::vector<L> labels(g.masters());
    engine.for_each_vertex(g.masters(), [&](local_t v) { labels[v] = static_cast<L>(g.global_id(forest.root(v))); });
    return labels;
  }

  // smallest[r]: the smallest label any proxy of root r's set holds. A round gives every proxy its
  // set's smallest and syncs; labels that arrive smaller join their set's smallest, and while any
  // arrived anywhere, another round spreads them.
  Field<L, sync::Min> label(g, 0, kBothWays);
  std::vector<L> smallest(g.proxies(), std::numeric_limits<L>::max());
  const auto lower = [&](local_t v) {  // takes v's label into its set's smallest; true if it was smaller
    if constexpr (!Shared) {
      L& best = smallest[forest.root(v)];
      if (label[v] >= best) return false;
      best = label[v];
      return true;
    }
    std::atomic_ref<L> best(smallest[forest.root(v)]);
    for (L b = best.load(std::memory_order_relaxed); label[v] < b;)
      if (best.compare_exchange_weak(b, label[v], std::memory_order_relaxed)) return true;
    return false;
  };
  engine.for_each_vertex(g.proxies(), [&](local_t v) {
    label[v] = static_cast<L>(g.global_id(v));
    lower(v);
  });
  std::uint64_t arrived = 1;  // labels from other ranks not yet spread here
  while (engine.next_round(arrived)) {
    engine.for_each_vertex(g.proxies(), [&](local_t v) {
      if (smallest[forest.root(v)] < label[v]) label.set(v, smallest[forest.root(v)]);
    });
    engine.sync(label);
    label.updated().clear();
    arrived = engine.sum_over<std::uint64_t>(g.proxies(), [&](local_t v) { return lower(v) ? 1 : 0; });
  }
  std::vector<L> labels = std::move(label.values());
  labels.resize(g.masters());  // the masters come first; shrinking keeps the memory
  return labels;
}

}  // namespace

template <class L>
std::vector<L> cc_union_find(Engine& engine) {
  if (engine.graph().global_vertices() > std::numeric_limits<L>::max())
    throw Error("cc: 32-bit labels need fewer than 2^32 vertices; use 64-bit labels");
  return engine.team().size() == 1 ? union_find_labels<L, false>(engine) : union_find_labels<L, true>(engine);
}

template std::vector<std::uint32_t> cc_union_find<std::uint32_t>(Engine&);
template std::vector<std::uint64_t> cc_union_find<std::uint64_t>(Engine&);

}  // namespace courier::algo
