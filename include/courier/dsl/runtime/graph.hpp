#pragma once
// Graph: what a generated function's `Graph g` is on one rank: the rank's partition and vertex
// engine, the loops a program's statements become (over masters, a flagged subset, a set), the
// edges of a master in CSR order, the graph's own facts (sizes, degrees, adjacency), and the
// collectives that make ranks agree. Loops hand fn(v, member): member indexes per-thread partials.
#include <algorithm>
#include <any>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "courier/core/timer.hpp"
#include "courier/dsl/runtime/access_profile.hpp"
#include "courier/dsl/runtime/layout.hpp"
#include "courier/dsl/runtime/phases.hpp"
#include "courier/dsl/runtime/values.hpp"
#include "courier/sync/substrate.hpp"
#include "courier/vertex/engine.hpp"

namespace courier::dsl::rt {

class Graph {
 public:
  // Collective: counts the graph's edges. `layout` says which rows of masters the partition holds.
  Graph(vertex::Engine& engine, Layout layout, Generation generation = Generation::optimised);
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  vertex::Engine& engine() { return engine_; }
  const dist::LocalGraph& partition() const { return graph_; }
  sync::Substrate& substrate() { return substrate_; }
  Layout layout() const { return layout_; }
  Generation generation() const { return generation_; }
  bool naive() const { return generation_ == Generation::naive; }
  rank_t ranks() const { return graph_.ranks(); }
  unsigned members() const { return engine_.team().size(); }
  Phases& phases() { return phases_; }
  // The phases with the naive generation's accesses (profiled by its loops' threads) taken out of
  // the computation, each a share of the loops' time: thread-seconds over the rank's threads.
  Phases profile() const;

  // ---- nodes
  local masters() const { return masters_; }
  local proxies() const { return graph_.proxies(); }
  bool is_master(local v) const { return v < masters_; }
  node id(local v) const { return v < masters_ ? first_master_ + v : graph_.global_id(v); }
  std::optional<local> find_proxy(node n) const { return graph_.local_id(n); }
  // n's local id; Error when this rank holds no proxy of n.
  local proxy(node n) const;
  // Whether this rank masters `n` (a node value).
  bool owns(node n) const { return n >= first_master_ && n - first_master_ < masters_; }
  rank_t owner(local v) const { return v < masters_ ? graph_.rank() : graph_.owner(v); }
  // v's index among its owner's masters.
  std::size_t master_index(local v) const { return graph_.global_id(v) - graph_.plan().masters_begin(owner(v)); }
  std::int64_t num_nodes() const { return static_cast<std::int64_t>(graph_.global_vertices()); }
  std::int64_t num_edges() const { return edges_; }

  // ---- edges, in CSR order (rows sorted by target)
  edge out_begin(local v) const { return out_.offsets[v]; }
  edge out_end(local v) const { return out_.offsets[v + 1]; }
  local out_target(edge e) const { return out_.targets[e]; }
  edge in_begin(local v) const { return in_.offsets[v]; }
  edge in_end(local v) const { return in_.offsets[v + 1]; }
  local in_source(edge e) const { return in_.targets[e]; }
  std::span<const local> out_neighbors(local v) const { return out_.neighbors(v); }
  std::span<const local> in_neighbors(local v) const { return in_.neighbors(v); }
  // The edge u -> v found by searching u's row (u's out-edges) or v's (its in-edges), as
  // StarPlat's get_edge searches; Error when there is none.
  edge find_out_edge(local u, local v) const;
  edge find_in_edge(local v, local u) const;

  // ---- facts needing a collective first (generated code asks for them where the function starts)
  void prepare_out_degrees();  // out_degree of every proxy
  void prepare_in_degrees();   // in_degree of every proxy
  void prepare_adjacency();    // has_edge from a mirror: the rows of mirrored masters
  std::int64_t out_degree(local v) const { return out_degree_[v]; }
  std::int64_t in_degree(local v) const { return in_degree_[v]; }
  // Is u -> w an edge? u's row must be complete here (a master) or fetched (prepare_adjacency).
  bool has_edge(local u, local w) const;

  // ---- loops (computation; every rank over its own masters)
  template <class Fn>
  void for_nodes(Fn&& fn);
  // fn(v) for every master: work a pulse's loop needs done first (hoisted expressions), not a pulse.
  template <class Fn>
  void for_masters(Fn&& fn);
  // A rank's in-edges as plain pointers, the offsets' width fixed: a loop that takes them by value
  // keeps them in registers.
  template <class Offset>
  struct Rows {
    const Offset* offsets;
    const local* targets;
    std::span<const local> neighbors(local v) const { return {targets + offsets[v], targets + offsets[v + 1]}; }
  };
  // fn(in, begin, end, member) over chunks [begin, end) of the nodes whose in-edges this rank holds
  // (each chunk whole 64-bit words of node ids), `in` their Rows: its proxies over an outgoing cut
  // (Layout::out, each rank's own edges turned around), its masters where they hold their complete
  // in-edges. A pulse's loop (a bottom-up step): the body's state set up once a chunk stays in
  // registers across its nodes.
  template <class Fn>
  void for_pulled(Fn&& fn);
  // The masters flagged in `flags` (a NodeFlags), through its frontier: a round costs its flags.
  template <class Flags, class Fn>
  void for_flagged(Flags& flags, Fn&& fn);
  // The masters among `set`'s nodes.
  template <class Fn>
  void for_set(const NodeSet& set, Fn&& fn);
  // Masters for which fn(v) holds, on this rank.
  template <class Fn>
  std::uint64_t count_nodes(Fn&& fn);
  // Runs fn(begin, end, member) over chunks of [0, items) and counts it as computation.
  template <class Fn>
  void for_chunks(std::size_t items, std::size_t chunk, Fn&& fn);

  // ---- agreement between ranks (collective)
  // Ends a round of the run's statistics; `active`: this rank's count of work left. False when no
  // rank has any.
  bool next_round(std::uint64_t active);
  // Throws Error on every rank if some rank's narrow() met a value that does not fit (collective).
  void check_narrowing();
  // `value` combined with Op over all ranks, the same on every rank.
  template <class Op, class T>
  T all_reduce(T value);

  // ---- int arithmetic computed in 64 bits for a reduction into an int property (the optimised
  // generation: a Min of v.dist + e.weight must not wrap around): x as T where it fits below INF;
  // elsewhere the identity of Op, so the reduction changes nothing (a Min or Max loop still ends),
  // and the function fails where it returns (check_narrowing) naming `where`, in the .sp file.
  template <class T, class Op>
  T narrow(std::int64_t x, const char* where) {
    if (x >= std::numeric_limits<T>::min() && x < inf<T>()) [[likely]]
      return static_cast<T>(x);
    overflowed_.store(where, std::memory_order_relaxed);
    return Op::template identity<T>();
  }

  // What a statement keeps from one run to its next, by a key naming it (the naive generation's
  // reductions: their slots and window, made once, not once a round). make() makes it at the
  // first call, on every rank alike (it may be collective); it lives as long as the Graph.
  template <class State, class Make>
  State& statement_state(std::string_view key, Make&& make) {
    auto found = statement_states_.find(key);
    if (found == statement_states_.end())
      found = statement_states_.emplace(std::string(key), std::shared_ptr<State>(make())).first;
    return *std::any_cast<const std::shared_ptr<State>&>(found->second);
  }

  // What the generated function leaves behind: its top-level scalars when it returned.
  using Kept = std::variant<std::int64_t, double>;
  template <class T>
  void keep(std::string name, T value) {
    if constexpr (std::is_floating_point_v<T>) {
      kept_[std::move(name)] = static_cast<double>(value);
    } else {
      kept_[std::move(name)] = static_cast<std::int64_t>(value);
    }
  }
  // The kept scalar `name`; Error when the function kept none by that name.
  template <class T>
  T kept(std::string_view name) const {
    return std::visit([](auto v) { return static_cast<T>(v); }, find_kept(name));
  }

 private:
  void agree_degrees(std::vector<std::int64_t>& degree, bool complete);  // masters' sums, to mirrors
  const Kept& find_kept(std::string_view name) const;
  [[noreturn]] void narrowing_failed() const;

  vertex::Engine& engine_;
  const dist::LocalGraph& graph_;
  const dist::LocalCsr& out_;
  const dist::LocalCsr& in_;
  sync::Substrate substrate_;
  Layout layout_;
  Generation generation_;
  local masters_;
  node first_master_;
  std::int64_t edges_ = 0;
  bool out_degrees_prepared_ = false, in_degrees_prepared_ = false, adjacency_prepared_ = false;
  std::vector<std::int64_t> out_degree_, in_degree_;
  std::vector<std::size_t> ghost_offsets_;  // by mirror: its row of global ids, sorted
  std::vector<node> ghost_targets_;
  Phases phases_;
  std::vector<AccessSlot> accesses_;  // by member, counted in the naive generation's loops
  std::map<std::string, Kept, std::less<>> kept_;
  std::atomic<const char*> overflowed_{nullptr};                   // where narrow() last met a value too wide
  std::map<std::string, std::any, std::less<>> statement_states_;  // each a std::shared_ptr<State>
};

// ---- templates
//
// As in vertex::Engine: a loop body's atomic writes are barriers to the compiler, so the loops take
// the body's address (and what they index) into locals once a chunk, where they stay in registers.

template <class Fn>
void Graph::for_chunks(std::size_t items, std::size_t chunk, Fn&& fn) {
  Timer timer;
  if (naive()) {
    engine_.for_chunks(items, chunk, [&](std::size_t begin, std::size_t end, unsigned member) {
      this_thread_accesses = &accesses_[member];
      fn(begin, end, member);
      this_thread_accesses = nullptr;
    });
  } else {
    engine_.for_chunks(items, chunk, fn);
  }
  phases_.compute_seconds += timer.elapsed();
}

template <class Fn>
void Graph::for_nodes(Fn&& fn) {
  ++phases_.pulses;
  for_chunks(masters_, vertex::Engine::kVertexChunk, [&](std::size_t begin, std::size_t end, unsigned member) {
    auto& body = fn;
    for (std::size_t v = begin; v < end; ++v) body(static_cast<local>(v), member);
  });
}

template <class Fn>
void Graph::for_pulled(Fn&& fn) {
  ++phases_.pulses;
  static_assert(vertex::Engine::kVertexChunk % 64 == 0);
  in_.offsets.visit([&](auto offsets) {
    const Rows<typename decltype(offsets)::value_type> in{offsets.data(), in_.targets.data()};
    for_chunks(layout_ == Layout::out ? proxies() : masters_, vertex::Engine::kVertexChunk,
               [&](std::size_t begin, std::size_t end, unsigned member) {
                 fn(in, static_cast<local>(begin), static_cast<local>(end), member);
               });
  });
}

template <class Fn>
void Graph::for_masters(Fn&& fn) {
  for_chunks(masters_, vertex::Engine::kVertexChunk, [&](std::size_t begin, std::size_t end, unsigned) {
    auto& body = fn;
    for (std::size_t v = begin; v < end; ++v) body(static_cast<local>(v));
  });
}

template <class Flags, class Fn>
void Graph::for_flagged(Flags& flags, Fn&& fn) {
  ++phases_.pulses;
  vertex::Frontier& frontier = flags.frontier();
  Timer timer;
  frontier.prepare();
  phases_.compute_seconds += timer.elapsed();
  if (frontier.sparse()) {
    const std::span<const local> list = frontier.list();
    for_chunks(list.size(), 64, [&](std::size_t begin, std::size_t end, unsigned member) {
      const std::span<const local> items = list;
      const local masters = masters_;
      auto& body = fn;
      for (std::size_t i = begin; i < end; ++i)
        if (items[i] < masters) body(items[i], member);
    });
    return;
  }
  // Chunks of whole 64-bit words of the masters' flags.
  for_chunks((std::size_t{masters_} + 63) / 64, 16, [&](std::size_t begin, std::size_t end, unsigned member) {
    frontier.bits().for_each(begin * 64, std::min<std::size_t>(masters_, end * 64),
                             [&](std::size_t v) { fn(static_cast<local>(v), member); });
  });
}

template <class Fn>
void Graph::for_set(const NodeSet& set, Fn&& fn) {
  ++phases_.pulses;
  for_chunks(set.size(), 64, [&](std::size_t begin, std::size_t end, unsigned member) {
    for (std::size_t i = begin; i < end; ++i)
      if (owns(set[i])) fn(static_cast<local>(set[i] - first_master_), member);
  });
}

template <class Fn>
std::uint64_t Graph::count_nodes(Fn&& fn) {
  std::vector<std::uint64_t> counts(members(), 0);
  for_chunks(masters_, vertex::Engine::kVertexChunk, [&](std::size_t begin, std::size_t end, unsigned member) {
    std::uint64_t count = 0;
    for (std::size_t v = begin; v < end; ++v) count += fn(static_cast<local>(v)) ? 1 : 0;
    counts[member] += count;
  });
  std::uint64_t total = 0;
  for (std::uint64_t c : counts) total += c;
  return total;
}

template <class Op, class T>
T Graph::all_reduce(T value) {
  if (ranks() == 1) return value;
  Timer timer;
  T result = value;
  if constexpr (std::is_same_v<Op, Sum> && std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    // Two's complement: a sum of signed values modulo 2^64 is their sum.
    result = static_cast<T>(engine_.sum_all(static_cast<std::uint64_t>(value)));
  } else if constexpr (std::is_same_v<Op, Sum> && std::is_floating_point_v<T>) {
    result = static_cast<T>(engine_.sum_all(static_cast<double>(value)));
  } else {
    static_assert(std::is_trivially_copyable_v<T>);
    sync::Bytes mine(sizeof(T));
    std::memcpy(mine.data(), &value, sizeof(T));
    const std::vector<sync::Bytes> all =
        engine_.exchange(std::vector<sync::Bytes>(static_cast<std::size_t>(ranks()), mine));
    result = Op::template identity<T>();
    for (const sync::Bytes& theirs : all) {
      T v;
      std::memcpy(&v, theirs.data(), sizeof(T));
      Op::combine(result, v);
    }
  }
  phases_.agreement_seconds += timer.elapsed();
  return result;
}

}  // namespace courier::dsl::rt
