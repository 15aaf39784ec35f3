#pragma once
// Engine: bulk-synchronous rounds of a vertex program on one rank's LocalGraph. A round runs an
// operator over the team (data-driven: each active vertex of a Frontier; topology-driven: every
// vertex), then synchronises the Fields it declared (Engine::sync applies the policy rule of
// access.hpp), then asks every rank whether anything is still active (next_round). Algorithms
// call it on every rank in the same order and contain no communication code.
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "courier/core/bitset.hpp"
#include "courier/core/error.hpp"
#include "courier/core/progress.hpp"
#include "courier/core/thread_team.hpp"
#include "courier/core/timer.hpp"
#include "courier/dist/local_graph.hpp"
#include "courier/sync/channel.hpp"
#include "courier/sync/exchange.hpp"
#include "courier/sync/substrate.hpp"
#include "courier/vertex/access.hpp"
#include "courier/vertex/field.hpp"
#include "courier/vertex/frontier.hpp"
#include "courier/vertex/stats.hpp"

namespace courier::vertex {

using dist::local_t;
using graph::edge_t;
using graph::vertex_t;

class Engine {
 public:
  Engine(const dist::LocalGraph& graph, sync::Channel& channel, ThreadTeam& team);

  const dist::LocalGraph& graph() const { return graph_; }
  sync::Channel& channel() { return channel_; }
  ThreadTeam& team() { return team_; }
  rank_t rank() const { return graph_.rank(); }
  rank_t ranks() const { return graph_.ranks(); }

  // ---- operators (compute time) ----
  // fn(begin, end, member) over chunks of [0, items) that members take as they finish the last.
  template <class Fn>
  void for_chunks(std::size_t items, std::size_t chunk, Fn&& fn);
  // fn(v) for every active v of `frontier`, in parallel; call frontier.prepare() first (next_round does).
  template <class Fn>
  void for_each_active(const Frontier& frontier, Fn&& fn);
  // fn(v) for every v in [0, count), in parallel (topology-driven; count = masters() or proxies()).
  // Each thread takes chunks of kVertexChunk consecutive vertices, whole 64-bit words of a
  // bitset, so fn may mark v with Bitset::set_exclusive / Field::set_exclusive (so may pull's).
  static constexpr std::size_t kVertexChunk = 1024;
  template <class Fn>
  void for_each_vertex(local_t count, Fn&& fn);
  // The same a chunk at a time: fn(begin, end), for a loop that keeps its state in locals.
  template <class Fn>
  void for_vertex_chunks(local_t count, Fn&& fn);
  // Push: fn(u, v, e) for every out-edge e = (u, v) of every active u.
  template <class Fn>
  void push(const Frontier& frontier, Fn&& fn);
  // Topology-driven push: fn(u, v, e) for every out-edge e = (u, v) stored here.
  template <class Fn>
  void for_each_edge(Fn&& fn);
  // Pull: fn(v, in_neighbours, first_edge) for every proxy v with in-edges (needs in-edges).
  template <class Fn>
  void pull(Fn&& fn);
  // Marks the round as one that pulled, for an operator that pulls without Engine::pull (e.g. over
  // masters only, or over both edge directions): RoundStats::pulled.
  void note_pull() { round_pulled_ = true; }
  // The sum of fn(v) over v in [0, count), in parallel.
  template <class T, class Fn>
  T sum_over(local_t count, Fn&& fn);

  // ---- synchronisation (communication time) ----
  // Reduces and/or broadcasts the updated labels of `field`, as its Access and the policy need.
  // Afterwards `field.updated()` holds the proxies whose label changed (masters and mirrors).
  template <class T, class Op>
  void sync(Field<T, Op>& field);
  // Both directions whatever the policy (e.g. a label every proxy needs once, like degrees).
  template <class T, class Op>
  void sync_everywhere(Field<T, Op>& field);
  SyncPlan plan_for(Access access) const { return sync_plan(graph_.plan().policy(), ranks(), access); }

  // ---- rounds ----
  // Ends a round and starts the next: counts `frontier` (listing it if sparse) on all ranks;
  // false when no rank has an active vertex.
  bool next_round(Frontier& frontier);
  // Topology-driven: `active` is this rank's count of work left (e.g. 1 if not converged).
  bool next_round(std::uint64_t active);
  // The global active count the last next_round saw (or, running alone, the last next_level).
  std::uint64_t active() const { return round_active_; }
  std::size_t rounds() const { return stats_.rounds.size() + (round_open_ ? 1 : 0); }

  // ---- running alone ----
  // A round in which this rank holds every active vertex (the others have none, so they update
  // nothing and send nothing) may go on here, level after level, without communication, as long as
  // what it updates need not travel: the labels and levels come out as if the ranks had run those
  // rounds together, and the others simply wait in the round's sync. Only for data-driven rounds
  // whose work is their frontier's; one rank has nothing to save, so it never runs alone.
  // When this rank runs the round alone and `field` has updates, none of which its sync would send:
  // moves them into `frontier` (as frontier.take), counts a level and returns true. Else false: the
  // round goes on to sync `field` as usual.
  template <class T, class Op>
  bool next_level(Frontier& frontier, Field<T, Op>& field);
  // The test alone: this rank runs the round alone and `field` has updates, none of which need travel.
  template <class T, class Op>
  bool stays_here(Field<T, Op>& field);
  // Counts a level run alone with `active` vertices (for an algorithm that makes its frontier itself).
  void count_level(std::uint64_t active);
  bool alone() const { return alone_; }
  // Global collectives, counted as communication time.
  std::uint64_t sum_all(std::uint64_t value);
  double sum_all(double value);
  double max_all(double value);
  double min_all(double value) { return -max_all(-value); }
  // Collective: outgoing[r] goes to rank r (this rank's own share is handed back directly);
  // returns what every rank sent here, indexed by source. Messages of any size, e.g. adjacency
  // lists; see gather.hpp for typed helpers.
  std::vector<sync::Bytes> exchange(std::vector<sync::Bytes> outgoing);
  // The same read in place: arrived(source, bytes) sees each other rank's message in the channel's
  // buffer (sync::exchange_all over views); the caller keeps its own.
  void exchange(std::span<const std::span<const std::byte>> outgoing, const sync::Arrived& arrived);

  // Collective: totals, and every round, over all ranks. Call once at the end, on every rank.
  RunStats finish();

 private:
  void close_round();
  void combine_rounds(std::vector<RoundStats>& rounds);
  bool updates_stay_here(Bitset& updated, SyncPlan plan);
  // Levels run alone may take well under a microsecond: rather than clock every operator, the
  // compute time of a run of them is taken in laps, from one level's test to the next.
  void start_lapping() {
    if (!lapping_) lap_.lap();
    lapping_ = true;
  }
  void stop_lapping() {
    if (lapping_) compute_ += lap_.lap();
    lapping_ = false;
  }

  const dist::LocalGraph& graph_;
  sync::Channel& channel_;
  ThreadTeam& team_;
  sync::Substrate substrate_;
  Timer started_;
  bool round_open_ = false;
  std::uint64_t round_active_ = 0;
  std::uint64_t round_started_active_ = 0;  // round_active_ at the round's start, for its stats
  bool alone_ = false;                // this rank holds every active vertex of the round
  std::uint64_t round_levels_ = 0;    // levels run in this round (1 unless alone)
  std::uint64_t round_visited_ = 0;   // this rank's active vertices over the round's levels
  bool round_pulled_ = false;         // an operator of this round pulled
  std::uint64_t levels_total_ = 0;    // all rounds' levels, this rank's
  std::uint64_t scanned_before_ = 0;  // the team's scanned bitset words when the round began
  Bitset mirrored_masters_;           // masters some peer mirrors (running alone, broadcasts)
  std::unique_ptr<ProgressLine> progress_;
  bool lapping_ = false;  // running alone: compute time in laps (lap_), operators untimed
  Timer lap_;
  double compute_ = 0, sync_ = 0;              // this round so far
  double compute_total_ = 0, sync_total_ = 0;  // all rounds
  std::uint64_t messages_before_ = 0, bytes_before_ = 0;  // the channel's counts when the round began
  RunStats stats_;
};

// ---- templates ----
//
// An operator's atomic writes are barriers to the compiler: after one it reloads whatever the loop
// reaches through memory (the offsets' and targets' addresses, the operator's own). So the loops
// below copy those into locals once a chunk or a vertex, and the per-edge loops read registers.

template <class Fn>
void Engine::for_chunks(std::size_t items, std::size_t chunk, Fn&& fn) {
  if (items == 0) return;
  if (items <= chunk || team_.size() == 1) {
    fn(std::size_t{0}, items, 0u);
    return;
  }
  std::atomic<std::size_t> next{0};
  team_.run([&](unsigned member) {
    for (std::size_t begin = next.fetch_add(chunk, std::memory_order_relaxed); begin < items;
         begin = next.fetch_add(chunk, std::memory_order_relaxed))
      fn(begin, std::min(items, begin + chunk), member);
  });
}

template <class Fn>
void Engine::for_each_active(const Frontier& frontier, Fn&& fn) {
  auto run = [&] {
    if (frontier.sparse()) {
      const auto list = frontier.list();
      for_chunks(list.size(), 64, [&](std::size_t begin, std::size_t end, unsigned) {
        const auto items = list;
        auto& op = fn;
        for (std::size_t i = begin; i < end; ++i) op(items[i]);
      });
    } else {
      // Chunks of whole 64-bit words, so no two threads share one.
      const std::size_t n = frontier.size();
      for_chunks((n + 63) / 64, 16, [&](std::size_t begin, std::size_t end, unsigned) {
        auto& op = fn;
        frontier.bits().for_each(begin * 64, std::min(n, end * 64),
                                 [&op](std::size_t v) { op(static_cast<local_t>(v)); });
      });
    }
  };
  if (lapping_) return run();  // levels run alone are timed by their laps: no clock reads here
  Timer timer;
  run();
  compute_ += timer.elapsed();
}

template <class Fn>
void Engine::for_vertex_chunks(local_t count, Fn&& fn) {
  Timer timer;
  static_assert(kVertexChunk % 64 == 0, "chunks of whole bitset words");
  for_chunks(count, kVertexChunk, [&](std::size_t begin, std::size_t end, unsigned) {
    fn(static_cast<local_t>(begin), static_cast<local_t>(end));
  });
  compute_ += timer.elapsed();
}

template <class Fn>
void Engine::for_each_vertex(local_t count, Fn&& fn) {
  for_vertex_chunks(count, [&](local_t begin, local_t end) {
    auto& op = fn;
    for (local_t v = begin; v < end; ++v) op(v);
  });
}

template <class Fn>
void Engine::push(const Frontier& frontier, Fn&& fn) {
  const auto& out = graph_.out();
  out.offsets.visit([&](auto offsets) {  // the offsets' width tested once, not at every row
    for_each_active(frontier, [&](local_t u) {
      const local_t* targets = out.targets.data();
      auto& op = fn;
      for (edge_t e = offsets[u], end = offsets[u + 1]; e < end; ++e) op(u, targets[e], e);
    });
  });
}

template <class Fn>
void Engine::for_each_edge(Fn&& fn) {
  const auto& out = graph_.out();
  out.offsets.visit([&](auto offsets) {
    for_vertex_chunks(graph_.proxies(), [&](local_t begin, local_t end) {
      const auto rows = offsets;
      const local_t* targets = out.targets.data();
      auto& op = fn;
      for (local_t u = begin; u < end; ++u)
        for (edge_t e = rows[u], last = rows[u + 1]; e < last; ++e) op(u, targets[e], e);
    });
  });
}

template <class Fn>
void Engine::pull(Fn&& fn) {
  const auto& in = graph_.in();
  if (!graph_.has_in_edges()) throw Error("engine: a pull operator needs the graph partitioned with in-edges");
  round_pulled_ = true;
  in.offsets.visit([&](auto offsets) {
    for_vertex_chunks(graph_.proxies(), [&](local_t begin, local_t end) {
      const auto rows = offsets;
      const local_t* targets = in.targets.data();
      auto& op = fn;
      for (local_t v = begin; v < end; ++v) {
        const edge_t first = rows[v], last = rows[v + 1];
        if (first != last) op(v, std::span<const local_t>(targets + first, last - first), first);
      }
    });
  });
}

template <class T, class Fn>
T Engine::sum_over(local_t count, Fn&& fn) {
  Timer timer;
  std::vector<T> partial(team_.size(), T{});
  for_chunks(count, 1024, [&](std::size_t begin, std::size_t end, unsigned member) {
    auto& op = fn;
    T sum{};
    for (std::size_t v = begin; v < end; ++v) sum += op(static_cast<local_t>(v));
    partial[member] += sum;
  });
  T total{};
  for (const T& p : partial) total += p;
  compute_ += timer.elapsed();
  return total;
}

template <class T, class Op>
bool Engine::stays_here(Field<T, Op>& field) {
  if (!alone_) return false;
  start_lapping();
  if (updates_stay_here(field.updated(), plan_for(field.access()))) return true;
  stop_lapping();
  return false;
}

template <class T, class Op>
bool Engine::next_level(Frontier& frontier, Field<T, Op>& field) {
  if (!stays_here(field)) return false;
  frontier.take(field.updated());
  count_level(frontier.prepare());
  return true;
}

template <class T, class Op>
void Engine::sync(Field<T, Op>& field) {
  stop_lapping();
  const SyncPlan plan = plan_for(field.access());
  if (!plan.reduce && !plan.broadcast) return;
  Timer timer;
  if (plan.reduce) substrate_.template reduce<Op>(field.values(), field.updated());
  if (plan.broadcast) substrate_.broadcast(field.values(), field.updated());
  sync_ += timer.elapsed();
}

template <class T, class Op>
void Engine::sync_everywhere(Field<T, Op>& field) {
  stop_lapping();
  if (ranks() == 1) return;
  Timer timer;
  substrate_.template reduce<Op>(field.values(), field.updated());
  substrate_.broadcast(field.values(), field.updated());
  sync_ += timer.elapsed();
}

}  // namespace courier::vertex
