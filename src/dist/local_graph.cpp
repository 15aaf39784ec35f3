#include "courier/dist/local_graph.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <limits>
#include <numeric>

#include "courier/core/error.hpp"
#include "courier/core/memory.hpp"
#include "courier/core/parallel.hpp"
#include "courier/graph/weight_key.hpp"

namespace courier::dist {

namespace {

using graph::weight_key;
using graph::weight_of_key;

// The value type of a weights alternative; none (monostate) reads as uint32 for code typed alike.
template <class W>
struct ValueOf {
  using type = typename W::value_type;
};
template <>
struct ValueOf<std::monostate> {
  using type = std::uint32_t;
};

// Sorts one row of d edges by (target, weight) in place; `pairs` is scratch reused from row to row.
// Rows arrive mostly sorted (a .csr's rows are, and so are rows whose targets keep their order
// under the local ids), so a sorted row costs one look.
template <class W>
void sort_row(local_t* t, W* w, std::size_t d, std::vector<std::uint64_t>& pairs) {
  if (d < 2) return;
  if (!w) {
    if (!std::is_sorted(t, t + d)) std::sort(t, t + d);
    return;
  }
  bool sorted = true;
  for (std::size_t i = 1; i < d && sorted; ++i)
    sorted = t[i - 1] < t[i] || (t[i - 1] == t[i] && weight_key(w[i - 1]) <= weight_key(w[i]));
  if (sorted) return;
  pairs.resize(d);
  for (std::size_t i = 0; i < d; ++i) pairs[i] = std::uint64_t{t[i]} << 32 | weight_key(w[i]);
  std::sort(pairs.begin(), pairs.end());
  for (std::size_t i = 0; i < d; ++i) {
    t[i] = static_cast<local_t>(pairs[i] >> 32);
    w[i] = weight_of_key<W>(static_cast<std::uint32_t>(pairs[i]));
  }
}

// Sorts rows [from, to) by (target, weight) in place (sort_row).
template <class W>
void sort_rows(LocalCsr& csr, std::vector<W>* weights, local_t from, local_t to) {
  std::vector<std::uint64_t> pairs;
  for (local_t v = from; v < to; ++v) {
    const edge_t a = csr.offsets[v], b = csr.offsets[v + 1];
    sort_row(csr.targets.data() + a, weights ? weights->data() + a : nullptr, b - a, pairs);
  }
}

// rows_by_source's second half: the targets (and weights) scattered to their rows at the cursors
// `next` (each row's start), and every row sorted.
template <class Visit, class Weights, class O>
void fill_rows(LocalCsr& csr, local_t proxies, edge_t m, Visit& visit, const Weights& weights, std::vector<O>& next) {
  std::visit(
      [&](const auto& w) {
        using Ws = std::decay_t<decltype(w)>;
        if constexpr (std::is_same_v<Ws, std::monostate>) {
          visit([&](local_t s, local_t d) { csr.targets[next[s]++] = d; });
          sort_rows<std::uint32_t>(csr, nullptr, 0, proxies);
        } else {
          std::vector<typename Ws::value_type> sorted(m);
          edge_t i = 0;
          visit([&](local_t s, local_t d) {
            const edge_t at = next[s]++;
            csr.targets[at] = d;
            sorted[at] = w[i++];
          });
          sort_rows(csr, &sorted, 0, proxies);
          csr.weights = std::move(sorted);
        }
      },
      weights);
}

// Rows of m edges by one counting scatter on the source, then each row sorted (sort_rows).
// visit(f) calls f(source, target) for every edge in local ids, in the order of `weights`;
// runs(f) calls f(source, count) for the same edges as runs of one source.
template <class Visit, class Runs, class Weights>
LocalCsr rows_by_source(local_t proxies, edge_t m, Visit&& visit, Runs&& runs, const Weights& weights) {
  LocalCsr csr;
  RowOffsets::in_width_for(m, [&]<class O>(O) {
    std::vector<O> offsets(static_cast<std::size_t>(proxies) + 1, 0);
    runs([&](local_t s, edge_t count) { offsets[s + 1] += static_cast<O>(count); });
    std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
    if (offsets.back() != m) throw Error("LocalGraph: the edges changed between two reads");
    std::vector<O> next(offsets.begin(), offsets.end() - 1);
    csr.offsets = RowOffsets(std::move(offsets));
    csr.targets.resize(m);
    fill_rows(csr, proxies, m, visit, weights, next);
  });
  return csr;
}

// The rows of an equal share of the edges for each of `parts` threads (degrees are skewed): part t
// takes rows [bounds[t], bounds[t + 1]).
std::vector<local_t> row_shares(const RowOffsets& offsets, local_t rows, unsigned parts) {
  std::vector<local_t> bounds(parts + 1, rows);
  bounds[0] = 0;
  offsets.visit([&](auto starts) {
    for (unsigned t = 1; t < parts; ++t) {
      const edge_t k = chunk_of(starts[rows], parts, t).begin;
      bounds[t] = static_cast<local_t>(std::lower_bound(starts.begin(), starts.begin() + rows, k) - starts.begin());
    }
  });
  return bounds;
}

// In-edges from out-edges by a counting scatter: sources are visited in order and each out-row is
// sorted by (target, weight), so every in-row comes out sorted by (source, weight). (Scattering in
// passes over cache-sized blocks of targets was tried: slower here, the passes cost more than the
// misses they save.) With several threads each scatters the rows of its share of the edges at its
// own cursor per in-row, placed after the earlier shares' edges of that row: the same in-edges,
// for one more array of cursors a thread beyond the first.
LocalCsr transpose(const LocalCsr& out, local_t proxies, unsigned threads) {
  LocalCsr in;
  const edge_t m = out.targets.size();
  in.targets.resize(m);
  const unsigned parts = std::min(threads_for(m), threads);
  const std::vector<local_t> shares = row_shares(out.offsets, proxies, parts);
  RowOffsets::in_width_for(m, [&]<class O>(O) {
    // cursors[t][v + 1]: first share t's count of in-edges of v, then where it writes the next one.
    // The last share's cursors end at each row's end: they become the offsets.
    std::vector<std::vector<O>> cursors(parts);
    parallel_for(parts, parts, [&](std::uint64_t, std::uint64_t, unsigned t) {
      cursors[t].assign(static_cast<std::size_t>(proxies) + 1, 0);
      O* const count = cursors[t].data() + 1;
      out.offsets.visit([&](auto rows) {
        for (edge_t k = rows[shares[t]]; k < rows[shares[t + 1]]; ++k) ++count[out.targets[k]];
      });
    });
    O running = 0;
    for (local_t v = 0; v < proxies; ++v)
      for (unsigned t = 0; t < parts; ++t) running += std::exchange(cursors[t][v + 1], running);
    std::visit(
        [&](const auto& w) {
          using Ws = std::decay_t<decltype(w)>;
          constexpr bool weighted = !std::is_same_v<Ws, std::monostate>;
          Ws moved;
          if constexpr (weighted) moved.resize(m);
          parallel_for(parts, parts, [&](std::uint64_t, std::uint64_t, unsigned t) {
            O* const next = cursors[t].data() + 1;
            out.offsets.visit([&](auto rows) {
              for (local_t v = shares[t]; v < shares[t + 1]; ++v)
                for (edge_t k = rows[v]; k < rows[v + 1]; ++k) {
                  const edge_t at = next[out.targets[k]]++;
                  in.targets[at] = v;
                  if constexpr (weighted) moved[at] = w[k];
                }
            });
          });
          if constexpr (weighted) in.weights = std::move(moved);
        },
        out.weights);
    std::vector<O> offsets = std::move(cursors[parts - 1]);
    cursors.clear();
    offsets[0] = 0;
    in.offsets = RowOffsets(std::move(offsets));
  });
  return in;
}

// Global ids to local ids on a rank whose masters are [first, first + masters) and whose mirrors,
// marked in a bitmap of every vertex, are numbered after them in global order: a mirror's local id
// is its bit's rank, a word's prefix count plus a popcount. 1/8 + 1/16 bytes a vertex stay in
// cache where a vertex-sized map of local ids (4 bytes a vertex) does not.
class MirrorIndex {
 public:
  MirrorIndex(vertex_t first, local_t masters, vertex_t n) : first_(first), masters_(masters), marks_((n + 63) / 64) {}
  bool is_master(vertex_t g) const { return g - first_ < masters_; }  // unsigned: below first wraps
  // Marks g a mirror; safe from several threads at once.
  void mark(vertex_t g) {
    std::atomic_ref<std::uint64_t> word(marks_[g >> 6]);
    const std::uint64_t bit = std::uint64_t{1} << (g & 63);
    if (!(word.load(std::memory_order_relaxed) & bit)) word.fetch_or(bit, std::memory_order_relaxed);
  }
  // The marked ids in order; after it, local() answers.
  std::vector<vertex_t> number_mirrors() {
    before_.resize(marks_.size());
    std::vector<vertex_t> ids;
    local_t count = 0;
    for (std::size_t i = 0; i < marks_.size(); ++i) {
      before_[i] = count;
      count += static_cast<local_t>(std::popcount(marks_[i]));
    }
    ids.reserve(count);
    for (std::size_t i = 0; i < marks_.size(); ++i)
      for (std::uint64_t w = marks_[i]; w != 0; w &= w - 1) ids.push_back(i * 64 + std::countr_zero(w));
    return ids;
  }
  local_t local(vertex_t g) const {
    if (is_master(g)) return static_cast<local_t>(g - first_);
    const std::uint64_t below = marks_[g >> 6] & ((std::uint64_t{1} << (g & 63)) - 1);
    return masters_ + before_[g >> 6] + static_cast<local_t>(std::popcount(below));
  }

 private:
  vertex_t first_;
  local_t masters_;
  std::vector<std::uint64_t> marks_;
  std::vector<local_t> before_;
};

}  // namespace

LocalGraph::LocalGraph(const PartitionPlan& plan, rank_t rank, unsigned threads)
    : plan_(plan),
      rank_(rank),
      threads_(threads == 0 ? default_thread_count() : threads),
      first_master_(plan.masters_begin(rank)),
      masters_(static_cast<local_t>(plan.masters_end(rank) - plan.masters_begin(rank))),
      narrow_ids_(plan.vertices() <= (vertex_t{1} << 32)),
      masters_on_(static_cast<std::size_t>(plan.ranks())) {}

template <class Visit, class Consume, class Runs>
void LocalGraph::build(Visit&& visit, Consume&& consume, Runs&& runs, edge_t m, const WeightView& weights) {
  const vertex_t n = plan_.vertices();
  // Mirrors marked in a bitmap of every vertex (MirrorIndex): they come out in order without
  // sorting, and each endpoint then maps in O(1) from cache. One rank masters every vertex: its ids
  // are already local.
  if (n >= std::numeric_limits<local_t>::max())
    throw Error(fmt::format("rank {} would map {} vertices, beyond 32-bit local ids: use more ranks", rank_, n));
  MirrorIndex index(first_master_, masters_, masters_ == n ? 0 : n);  // every vertex a master: no bits
  runs([&](vertex_t s, edge_t) {
    if (s >= n) throw Error(fmt::format("LocalGraph: an edge from {}, outside {} vertices", s, n));
    if (!index.is_master(s)) index.mark(s);
  });
  visit([&](vertex_t s, vertex_t d) {
    if (d >= n) throw Error(fmt::format("LocalGraph: edge {} -> {} outside {} vertices", s, d, n));
    if (!index.is_master(d)) index.mark(d);
  });
  take_mirrors(index.number_mirrors());
  const auto local = [&](vertex_t g) { return index.local(g); };
  out_ = rows_by_source(
      proxies(), m, [&](auto&& f) { consume([&](vertex_t s, vertex_t d) { f(local(s), local(d)); }); },
      [&](auto&& f) { runs([&](vertex_t s, edge_t count) { f(local(s), count); }); }, weights);
}

void LocalGraph::take_mirrors(std::vector<vertex_t> ids) {
  if (static_cast<std::uint64_t>(masters_) + ids.size() >= std::numeric_limits<local_t>::max())
    throw Error(fmt::format("rank {} would hold {} proxies, beyond 32-bit local ids: use more ranks", rank_,
                            static_cast<std::uint64_t>(masters_) + ids.size()));
  mirror_locals_.resize(ids.size());
  std::iota(mirror_locals_.begin(), mirror_locals_.end(), masters_);
  mirror_bounds_.assign(static_cast<std::size_t>(plan_.ranks()) + 1, 0);
  for (vertex_t g : ids) ++mirror_bounds_[static_cast<std::size_t>(plan_.master_of(g)) + 1];
  std::partial_sum(mirror_bounds_.begin(), mirror_bounds_.end(), mirror_bounds_.begin());
  if (narrow_ids()) {
    mirror_ids32_.assign(ids.begin(), ids.end());  // every id is below the vertex count
  } else {
    mirror_ids_ = std::move(ids);
  }
}

namespace {

template <class Vector>
auto view_of(const Vector& weights)
    -> std::variant<std::monostate, std::span<const std::uint32_t>, std::span<const float>> {
  return std::visit(
      [](const auto& w) -> std::variant<std::monostate, std::span<const std::uint32_t>, std::span<const float>> {
        using W = std::decay_t<decltype(w)>;
        if constexpr (std::is_same_v<W, std::monostate>)
          return std::monostate{};
        else
          return std::span<const typename W::value_type>(w.data(), w.size());
      },
      weights);
}

}  // namespace

LocalGraph::LocalGraph(const PartitionPlan& plan, rank_t rank, graph::EdgeList edges, bool with_in_edges,
                       unsigned threads)
    : LocalGraph(plan, rank, threads) {
  const std::vector<graph::Edge>& list = edges.edges;
  const auto each = [&](auto&& f) {
    for (const graph::Edge& e : list) f(e.src, e.dst);
  };
  build(
      each, each, [&](auto&& f) { each([&](vertex_t s, vertex_t) { f(s, edge_t{1}); }); }, list.size(),
      view_of(edges.weights));
  edges = {};
  if (with_in_edges) in_ = transpose(out_, proxies(), threads_);
}

LocalGraph::LocalGraph(const PartitionPlan& plan, rank_t rank, EdgeRuns edges, bool with_in_edges, unsigned threads)
    : LocalGraph(plan, rank, threads) {
  if (edges.run_source.size() != edges.run_length.size())
    throw Error("LocalGraph: edge runs with sources and lengths of different counts");
  edge_t total = 0;
  for (std::uint32_t length : edges.run_length) total += length;
  if (total != edges.size())
    throw Error(fmt::format("LocalGraph: runs of {} edges over {} targets", total, edges.size()));
  const auto each = [&](auto&& f) {
    edge_t k = 0;
    for (std::size_t r = 0; r < edges.run_source.size(); ++r)
      for (const edge_t end = k + edges.run_length[r]; k < end; ++k) f(edges.run_source[r], edges.targets[k]);
  };
  // The rows are filled from the runs front to back, and the runs' pages go as they are read: the
  // rows grow as the runs shrink, so both are never whole at once (at 4 ranks of kron:20 the runs
  // are 80 of the 250 MB that were the peak).
  const auto consume = [&](auto&& f) {
    constexpr std::size_t kWindow = std::size_t{1} << 18;  // edges or runs read before their pages go
    edge_t k = 0, k_released = 0;
    std::size_t r_released = 0;
    const auto give_back = [&](std::size_t r) {
      release_pages(edges.run_source.data() + r_released, (r - r_released) * sizeof(std::uint32_t));
      release_pages(edges.run_length.data() + r_released, (r - r_released) * sizeof(std::uint32_t));
      release_pages(edges.targets.data() + k_released, (k - k_released) * sizeof(std::uint32_t));
      std::visit(
          [&](const auto& w) {
            if constexpr (!std::is_same_v<std::decay_t<decltype(w)>, std::monostate>)
              release_pages(w.data() + k_released, (k - k_released) * sizeof(w[0]));
          },
          edges.weights);
      r_released = r, k_released = k;
    };
    for (std::size_t r = 0; r < edges.run_source.size(); ++r) {
      for (const edge_t end = k + edges.run_length[r]; k < end; ++k) f(edges.run_source[r], edges.targets[k]);
      if (k - k_released >= kWindow || r + 1 - r_released >= kWindow) give_back(r + 1);
    }
  };
  build(
      each, consume,
      [&](auto&& f) {
        for (std::size_t r = 0; r < edges.run_source.size(); ++r) f(edges.run_source[r], edge_t{edges.run_length[r]});
      },
      edges.size(), view_of(edges.weights));
  edges = {};
  if (with_in_edges) in_ = transpose(out_, proxies(), threads_);
}

namespace {

// In-edges of a known-symmetric graph on a rank that holds its masters' whole rows (sorted by
// local target): a master's in-edges from local masters are the reverses of the masters' part of
// its own out-row, which comes first (masters have the lowest local ids), so they are copied in
// order; only edges into mirrors are scattered, as a transpose of theirs.
LocalCsr symmetric_in_edges(const LocalCsr& out, local_t masters, local_t proxies) {
  const auto masters_part = [&](local_t v) {  // the end of row v's targets below `masters`
    const edge_t a = out.offsets[v], b = out.offsets[v + 1];
    return a + static_cast<edge_t>(std::lower_bound(out.targets.begin() + a, out.targets.begin() + b, masters) -
                                   (out.targets.begin() + a));
  };
  LocalCsr in;
  // Every in-edge is one of the out-edges, so their count is the width's bound.
  RowOffsets::in_width_for(out.targets.size(), [&]<class O>(O) {
    std::vector<O> offsets(static_cast<std::size_t>(proxies) + 1, 0);
    for (local_t v = 0; v < masters; ++v) {
      const edge_t mid = masters_part(v);
      offsets[v + 1] = static_cast<O>(mid - out.offsets[v]);
      for (edge_t k = mid; k < out.offsets[v + 1]; ++k) ++offsets[out.targets[k] + 1];
    }
    std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
    const edge_t m = offsets.back();
    in.targets.resize(m);
    std::vector<O> next(offsets.begin() + masters, offsets.end() - 1);  // mirrors' cursors
    std::visit(
        [&](const auto& w) {
          using Ws = std::decay_t<decltype(w)>;
          constexpr bool weighted = !std::is_same_v<Ws, std::monostate>;
          Ws moved;
          if constexpr (weighted) moved.resize(m);
          for (local_t v = 0; v < masters; ++v) {
            const edge_t a = out.offsets[v], mid = masters_part(v), b = out.offsets[v + 1];
            std::copy(out.targets.begin() + a, out.targets.begin() + mid, in.targets.begin() + offsets[v]);
            if constexpr (weighted) std::copy(w.begin() + a, w.begin() + mid, moved.begin() + offsets[v]);
            for (edge_t k = mid; k < b; ++k) {
              const edge_t at = next[out.targets[k] - masters]++;
              in.targets[at] = v;
              if constexpr (weighted) moved[at] = w[k];
            }
          }
          if constexpr (weighted) in.weights = std::move(moved);
        },
        out.weights);
    in.offsets = RowOffsets(std::move(offsets));
  });
  return in;
}

}  // namespace

void LocalGraph::copy_rows(const graph::CsrRows& rows) {
  constexpr edge_t kWindow = edge_t{1} << 21;  // edges read before their pages are released
  const vertex_t n = plan_.vertices();
  if (n >= std::numeric_limits<local_t>::max())
    throw Error(fmt::format("rank {} would map {} vertices, beyond 32-bit local ids: use more ranks", rank_, n));
  const bool identity = masters_ == n;  // one rank: local ids are global ids
  const edge_t m = rows.edges(), base = rows.edge_begin();
  const auto start = [&](vertex_t v) { return rows.offsets[v] - base; };  // row v: local master v
  out_.targets.resize(m);  // unwritten: the threads below touch its pages first
  std::visit(
      [&](const auto& w) {
        using W = std::decay_t<decltype(w)>;
        if constexpr (!std::is_same_v<W, std::monostate>) out_.weights = std::vector<typename W::value_type>(m);
      },
      rows.weights);
  MirrorIndex index(first_master_, masters_, identity ? 0 : n);
  // Each thread takes the rows of an equal share of the edges (degrees are skewed). First pass:
  // targets copied, narrowed and checked below n, mirrors marked; with one rank each row is also
  // sorted where it is not (a .csr's rows are), else that waits for the local ids.
  const unsigned split = std::min(threads_for(m), threads_);
  const auto rows_of = [&](unsigned t) {
    const auto row_of = [&](edge_t k) {  // the first row starting at or after edge k
      return static_cast<vertex_t>(std::lower_bound(rows.offsets.begin(), rows.offsets.end() - 1, base + k) -
                                   rows.offsets.begin());
    };
    const IndexRange share = chunk_of(m, split, t);
    return std::pair{t == 0 ? vertex_t{0} : row_of(share.begin),
                     t + 1 == split ? vertex_t{masters_} : row_of(share.end)};
  };
  std::vector<edge_t> bad(split, std::numeric_limits<edge_t>::max());
  parallel_for(split, split, [&](std::uint64_t, std::uint64_t, unsigned t) {
    const auto [from, to] = rows_of(t);
    std::vector<std::uint64_t> pairs;
    edge_t released = start(from);
    for (vertex_t v = from; v < to; ++v) {
      const edge_t a = start(v), b = start(v + 1);
      vertex_t largest = 0;
      bool sorted = true;
      for (edge_t k = a; k < b; ++k) {
        const vertex_t target = rows.targets[k];
        largest = std::max(largest, target);
        sorted &= k == a || rows.targets[k - 1] <= target;
        out_.targets[k] = static_cast<local_t>(target);
      }
      if (largest >= n) {
        const vertex_t* row = rows.targets.data() + a;
        bad[t] = a + static_cast<edge_t>(std::find_if(row, row + (b - a), [&](vertex_t x) { return x >= n; }) - row);
        return;
      }
      if (!identity)  // after the check above: a target beyond n has no bit to mark
        for (edge_t k = a; k < b; ++k)
          if (!index.is_master(out_.targets[k])) index.mark(out_.targets[k]);
      std::visit(
          [&](const auto& w) {
            using W = std::decay_t<decltype(w)>;
            using Value = typename ValueOf<W>::type;
            Value* mine = nullptr;
            if constexpr (!std::is_same_v<W, std::monostate>) {
              mine = std::get<std::vector<Value>>(out_.weights).data() + a;
              std::copy(w.data() + a, w.data() + b, mine);
            }
            // Ties between targets are ordered by weight: sort_row looks at the pairs.
            if (identity && (!sorted || mine)) sort_row(out_.targets.data() + a, mine, b - a, pairs);
          },
          rows.weights);
      if (b - released >= kWindow) {
        rows.release(released, b);
        released = b;
      }
    }
    rows.release(released, start(to));
  });
  if (const edge_t k = *std::min_element(bad.begin(), bad.end()); k != std::numeric_limits<edge_t>::max()) {
    const auto s = static_cast<vertex_t>(std::upper_bound(rows.offsets.begin(), rows.offsets.end(), base + k) -
                                         rows.offsets.begin()) -
                   1;
    throw Error(fmt::format("LocalGraph: edge {} -> {} outside {} vertices", rows.first + s, rows.targets[k], n));
  }

  take_mirrors(index.number_mirrors());
  RowOffsets::in_width_for(m, [&]<class O>(O) {
    std::vector<O> offsets(static_cast<std::size_t>(proxies()) + 1, static_cast<O>(m));  // mirrors: no rows
    for (vertex_t v = 0; v <= masters_; ++v) offsets[v] = static_cast<O>(start(v));
    out_.offsets = RowOffsets(std::move(offsets));
  });
  if (identity) return;
  // Second pass: targets to local ids. A row sorted in global ids is [mirrors below my masters,
  // masters, mirrors above], each part in order under the local ids too, so one rotation puts the
  // masters (the lowest local ids) first; rows the file left unsorted are sorted.
  parallel_for(split, split, [&](std::uint64_t, std::uint64_t, unsigned t) {
    const auto [from, to] = rows_of(t);
    std::vector<std::uint64_t> pairs;
    for (vertex_t v = from; v < to; ++v) {
      const edge_t a = start(v), b = start(v + 1);
      local_t* const row = out_.targets.data() + a;
      const std::size_t d = b - a;
      const bool sorted = std::is_sorted(row, row + d);
      std::size_t low = 0, high = 0;  // the masters' part, in a sorted row
      if (sorted) {
        low = static_cast<std::size_t>(std::lower_bound(row, row + d, first_master_) - row);
        high = static_cast<std::size_t>(std::lower_bound(row + low, row + d, first_master_ + masters_) - row);
      }
      for (std::size_t i = 0; i < d; ++i) row[i] = index.local(row[i]);
      std::visit(
          [&](auto& w) {
            using W = std::decay_t<decltype(w)>;
            using Value = typename ValueOf<W>::type;
            Value* mine = nullptr;
            if constexpr (!std::is_same_v<W, std::monostate>) mine = w.data() + a;
            if (sorted) {
              std::rotate(row, row + low, row + high);
              if (mine) std::rotate(mine, mine + low, mine + high);
            }
            if (!sorted || mine) sort_row(row, mine, d, pairs);
          },
          out_.weights);
    }
  });
}

LocalGraph::LocalGraph(const PartitionPlan& plan, rank_t rank, const graph::CsrRows& rows, bool with_in_edges,
                       unsigned threads)
    : LocalGraph(plan, rank, threads) {
  constexpr edge_t kWindow = edge_t{1} << 21;  // edges read before their pages are released
  if (rows.first == first_master_ && rows.rows() == masters_) {  // my masters' rows: every edge I hold
    copy_rows(rows);
    rows.release_all();  // before the in-edges: the rows are copied
    if (with_in_edges) {
      in_is_out_ = rows.symmetric && masters_ == plan.vertices();
      if (!in_is_out_)
        in_ = rows.symmetric ? symmetric_in_edges(out_, masters_, proxies()) : transpose(out_, proxies(), threads_);
    }
    return;
  }
  const auto each = [&](auto&& f) {
    for (edge_t a = 0; a < rows.edges(); a += kWindow) {
      const edge_t b = std::min(rows.edges(), a + kWindow);
      rows.visit(a, b, [&](vertex_t s, vertex_t d, edge_t) { f(s, d); });
      rows.release(a, b);
    }
  };
  build(
      each, each,
      [&](auto&& f) {
        for (vertex_t r = 0; r < rows.rows(); ++r)
          if (rows.offsets[r + 1] > rows.offsets[r]) f(rows.first + r, rows.offsets[r + 1] - rows.offsets[r]);
      },
      rows.edges(), view_of(rows.weights));
  rows.release_all();
  if (with_in_edges) in_ = transpose(out_, proxies(), threads_);  // a part of a graph: its in-edges are elsewhere too
}

LocalGraph::LocalGraph(const PartitionPlan& plan, rank_t rank, graph::CsrPart part, bool with_in_edges,
                       unsigned threads)
    : LocalGraph(plan, rank, threads) {
  if (part.first_master != first_master_ || part.masters != masters_ ||
      part.request_bounds.size() != static_cast<std::size_t>(plan.ranks()) + 1)
    throw Error(fmt::format("LocalGraph: a part with masters {}..{} for rank {}, which masters {}..{}",
                            part.first_master, part.first_master + part.masters, rank, first_master_,
                            first_master_ + masters_));
  take_mirrors(std::move(part.mirror_ids));
  for (rank_t q = 0; q < plan.ranks(); ++q)
    masters_on_[q].assign(part.requested.begin() + static_cast<std::ptrdiff_t>(part.request_bounds[q]),
                          part.requested.begin() + static_cast<std::ptrdiff_t>(part.request_bounds[q + 1]));
  out_.offsets = RowOffsets(std::move(part.offsets));
  out_.targets = std::move(part.targets);
  out_.weights = std::move(part.weights);
  if (!with_in_edges) return;
  if (part.in_offsets.empty()) {
    in_ = transpose(out_, proxies(), threads_);
    return;
  }
  in_.offsets = RowOffsets(std::move(part.in_offsets));
  in_.targets = std::move(part.in_sources);
  in_.weights = std::move(part.in_weights);
}

GraphBytes& GraphBytes::operator+=(const GraphBytes& other) {
  csr += other.csr;
  in_edges += other.in_edges;
  proxies += other.proxies;
  maps += other.maps;
  return *this;
}

namespace {

template <class T, class A>
std::uint64_t bytes_of(const std::vector<T, A>& v) {
  return v.capacity() * sizeof(T);
}

std::uint64_t bytes_of(const LocalCsr& csr) {
  return csr.offsets.bytes() + bytes_of(csr.targets) +
         std::visit(
             [](const auto& w) -> std::uint64_t {
               if constexpr (std::is_same_v<std::decay_t<decltype(w)>, std::monostate>)
                 return 0;
               else
                 return bytes_of(w);
             },
             csr.weights);
}

}  // namespace

GraphBytes LocalGraph::bytes() const {
  GraphBytes b;
  b.csr = bytes_of(out_);
  b.in_edges = bytes_of(in_);  // none when they are the out-edges
  b.proxies = bytes_of(mirror_ids32_) + bytes_of(mirror_ids_) + bytes_of(mirror_locals_);
  for (const auto& list : masters_on_) b.proxies += bytes_of(list);
  b.maps = bytes_of(mirror_bounds_) + (static_cast<std::uint64_t>(ranks()) + 1) * sizeof(vertex_t);
  return b;
}

std::optional<local_t> LocalGraph::local_id(vertex_t global) const {
  if (global >= first_master_ && global - first_master_ < masters_) return static_cast<local_t>(global - first_master_);
  const auto find = [&](const auto& ids) -> std::optional<local_t> {
    const auto it = std::lower_bound(ids.begin(), ids.end(), global);
    if (it == ids.end() || *it != global) return std::nullopt;
    return static_cast<local_t>(masters_ + (it - ids.begin()));
  };
  return narrow_ids() ? find(mirror_ids32_) : find(mirror_ids_);
}

std::vector<vertex_t> LocalGraph::mirror_ids() const {
  if (!narrow_ids()) return mirror_ids_;
  return std::vector<vertex_t>(mirror_ids32_.begin(), mirror_ids32_.end());
}

std::vector<local_t> LocalGraph::mirror_requests(rank_t owner) const {
  const vertex_t first = plan_.masters_begin(owner);
  std::vector<local_t> locals(mirror_bounds_[owner + 1] - mirror_bounds_[owner]);
  for (std::size_t k = 0; k < locals.size(); ++k)
    locals[k] = static_cast<local_t>(mirror_id(mirror_bounds_[owner] + k) - first);
  return locals;
}

void LocalGraph::set_mirrors_requested_by(rank_t peer, std::vector<local_t> masters) {
  for (local_t v : masters)
    if (v >= masters_)
      throw Error(
          fmt::format("rank {} asked rank {} for vertex {}, which it does not master", peer, rank_, first_master_ + v));
  masters_on_[peer] = std::move(masters);
}

std::vector<LocalGraph> partition_in_memory(const graph::EdgeList& edges, Policy policy, rank_t ranks,
                                            bool with_in_edges) {
  std::vector<edge_t> degree(edges.num_vertices, 0);
  for (const graph::Edge& e : edges.edges) ++degree[policy == Policy::iec ? e.dst : e.src];
  const PartitionPlan plan(policy, ranks, degree);

  std::vector<graph::EdgeList> shares(static_cast<std::size_t>(ranks));
  std::vector<std::vector<edge_t>> picked(static_cast<std::size_t>(ranks));
  for (edge_t i = 0; i < edges.edges.size(); ++i) {
    const rank_t r = plan.edge_owner(edges.edges[i].src, edges.edges[i].dst);
    shares[r].edges.push_back(edges.edges[i]);
    picked[r].push_back(i);
  }
  std::vector<LocalGraph> parts;
  parts.reserve(shares.size());
  for (rank_t r = 0; r < ranks; ++r) {
    shares[r].num_vertices = edges.num_vertices;
    std::visit(
        [&](const auto& w) {
          using W = std::decay_t<decltype(w)>;
          if constexpr (!std::is_same_v<W, std::monostate>) {
            W mine;
            mine.reserve(picked[r].size());
            for (edge_t i : picked[r]) mine.push_back(w[i]);
            shares[r].weights = std::move(mine);
          }
        },
        edges.weights);
    parts.emplace_back(plan, r, std::move(shares[r]), with_in_edges);
  }
  for (rank_t r = 0; r < ranks; ++r)
    for (rank_t owner = 0; owner < ranks; ++owner)
      parts[owner].set_mirrors_requested_by(r, parts[r].mirror_requests(owner));
  return parts;
}

PartitionQuality quality(const LocalGraph& mine, const Collective& collective) {
  PartitionQuality q;
  const std::uint64_t proxies = collective.sum(mine.proxies());
  const std::uint64_t edges = collective.sum(mine.edges());
  const std::uint64_t largest = collective.max(std::uint64_t{mine.edges()});
  if (mine.global_vertices() == 0) return q;
  q.replication = static_cast<double>(proxies) / static_cast<double>(mine.global_vertices());
  const double mean = static_cast<double>(edges) / static_cast<double>(mine.ranks());
  q.edge_imbalance = mean == 0 ? 1.0 : static_cast<double>(largest) / mean;
  return q;
}

PartitionQuality quality(std::span<const LocalGraph> parts) {
  PartitionQuality q;
  if (parts.empty() || parts[0].global_vertices() == 0) return q;
  std::uint64_t proxies = 0, edges = 0, largest = 0;
  for (const LocalGraph& part : parts) {
    proxies += part.proxies();
    edges += part.edges();
    largest = std::max<std::uint64_t>(largest, part.edges());
  }
  q.replication = static_cast<double>(proxies) / static_cast<double>(parts[0].global_vertices());
  const double mean = static_cast<double>(edges) / static_cast<double>(parts.size());
  q.edge_imbalance = mean == 0 ? 1.0 : static_cast<double>(largest) / mean;
  return q;
}

void connect_mirrors(LocalGraph& graph, const Collective& collective) {
  // Requests travel as the owner's local ids: half the bytes of global ids, at the partition's peak.
  std::vector<Bytes> outgoing(static_cast<std::size_t>(collective.ranks));
  for (rank_t r = 0; r < collective.ranks; ++r) {
    const std::vector<local_t> locals = graph.mirror_requests(r);
    outgoing[r].resize(locals.size() * sizeof(local_t));
    if (!locals.empty()) std::memcpy(outgoing[r].data(), locals.data(), outgoing[r].size());
  }
  std::vector<Bytes> asked = collective.exchange(std::move(outgoing));
  for (std::size_t peer = 0; peer < asked.size(); ++peer) {
    if (asked[peer].size() % sizeof(local_t) != 0) throw Error("dist: a malformed mirror request");
    std::vector<local_t> masters(asked[peer].size() / sizeof(local_t));
    if (!masters.empty()) std::memcpy(masters.data(), asked[peer].data(), asked[peer].size());
    Bytes().swap(asked[peer]);  // one peer's request in two copies at a time, not every peer's
    graph.set_mirrors_requested_by(static_cast<rank_t>(peer), std::move(masters));
  }
}

}  // namespace courier::dist
