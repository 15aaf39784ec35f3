#pragma once
// The matrix computing model (paper 003, section 7.3, Algorithm 2, Fig. 6), run by a Team over a
// Matrix. Every iteration, on every member at once:
//   Broadcast  the leader of segment k makes x_k from v_k (its active vertices) and sends it to
//              the ranks with followers in column group k; followers on its own rank read it in
//              place;
//   Combine    each member runs SpMSpV on its tiles row group after row group, and posts each
//              finished partial y_i to the leader of row group i (in place when on the same rank),
//              moving on without waiting;
//   Apply      the leader of k accumulates the partials into y_k and makes v_k from it;
// then one collective over all members counts what changed and checks convergence. Below
// kSparseBelow of a segment active, x and partial y travel and are read as (index, value) pairs
// (activity filtering, section 7.6).
//
// A Program says what the operators do:
//   using S = <semiring>; using V = <vertex value>;
//   static constexpr bool stationary;        // every vertex takes part in every iteration
//   V initial(vertex_t v) const;  bool initially_active(vertex_t v) const;
//   void account(vertex_t v, const V& value, std::uint32_t out_degree, Totals& mine) const;
//   S::X broadcast(vertex_t u, const V& value, std::uint32_t out_degree, const Totals& last) const;
//   bool apply(vertex_t v, S::Y y, V& value, std::uint32_t out_degree, const Totals& last, Totals& next) const;
//   bool more(unsigned iterations, double changed, const Totals& totals) const;  // go on after this many?
// A program that is not stationary leaves a vertex alone when y is add's identity (no active
// in-neighbour): Apply skips those. Totals are summed over all vertices: account() gives them
// before the first iteration, apply() for the next; slots 0 and 4 are the model's (vertices
// active next, vertices held back for a later bucket), slots 1-3 the program's.
//
// A program whose apply() reads the totals through terms the same for every vertex (pagerank's
// teleport and dangling shares) may compute them once per Apply pass, on the pass's own copy:
//   void prepare(const Totals& last);
// (the compiler cannot lift a division out of the loop's conditional code by itself).
//
// Computation filtering (section 7.6): a stationary program may also say
//   bool needs_sinks(unsigned iteration) const;  // must this iteration compute vertices without out-edges?
// On a matrix split at the sinks, an iteration that does not need them multiplies no entry into a
// sink and applies no vertex without out-edges (sinks and isolated vertices keep their values):
// the program promises that nothing it computes before then reads those values.
// A stationary program on a matrix split at the sources (Matrix: vertices with out-edges and no
// in-edges) may say
//   double sources_initially() const;              // every source's value before the first iteration
//   double sources_after(const Totals& last) const;  // ... after an Apply that read `last`
// promising that every source holds that same value r at every step and that its x is r over its
// out-degree, under a semiring that adds and ignores the entries' values. Then no entry out of a
// source is ever multiplied: Apply adds r times the row's source weight (Matrix::source_weights,
// summed once at load, the sources' one product) to each vertex's y. A source itself is applied as
// any vertex (its y holds nothing), so its value and its change are exact with a tolerance too.
//
// Sampling first (Afforest's idea, as LAGraph's connected components samples before FastSV): a
// program whose values only fall, by relaxations along edges, to a fixed point that any values
// between its initial and its final ones also reach (cc's labels) may say
//   static constexpr bool samples_first = true;
// On a matrix with samples (Tile::sample: the first kSampleEntries entries of each column and
// row), the iterations then run on the samples -- cheap passes that bring most labels to their
// final value -- until fewer than 1 in kSampledUntil vertices change, and then on the whole tiles
// from there, every vertex active once more, so every edge is relaxed at least once from the
// warmed values. (The samples' long tail of a few changes per iteration is left to the whole
// tiles, whose diameter is smaller.) On a matrix kept by rows too, that iteration pushes only the
// columns whose x is not the most common value c (the value of the vertex with the most
// out-edges: the largest component's label, most likely) and pulls c into every row with a
// column holding it, stopping at the first (pull_any): the same y as pushing every column, as
// add is min, at the cost of the edges outside the largest component and a short scan of each
// row, not of every edge (Afforest skips the largest component likewise).
//
// Pointer jumping (FastSV's hooking and shortcutting; Zhang, Azad, Hu 2020): a program whose values
// are labels -- a vertex of the same component, no larger than the vertex, falling only to other
// such labels, with the smallest id as the fixed point (cc) -- may say
//   static constexpr bool jumps = true;
// Besides its label, every vertex then has a parent among the vertices led on this rank (their
// values are in this rank's memory), itself at first; parents are smaller ids, so the chains end,
// at roots. Apply lowers a vertex to y, lowers its root's label to y as well (hooking), and makes
// the vertex y's child when y is led here; before every Broadcast each leader points its vertices
// at their roots and lowers their labels to the roots' (shortcutting). Every label stays a vertex
// of the component, so the fixed point is the same, reached in O(log n)-ish iterations instead of
// the diameter; a tree that spans ranks is joined only through labels along the edges, as correct,
// only slower. x carries the labels that differ from the last ones broadcast. Writes to labels are
// atomic minima and to parents atomic stores: a leader's roots are lowered by others' hooks, and
// its parents read by others' walks, while it works on them.
//
// Buckets (delta-stepping's idea, as the vertex engine's sssp): a program whose values are
// distances that only fall (below 2^53) may say
//   std::uint64_t bucket_width() const;  // 0: no buckets
// Apply then holds back a vertex that fell to a value at or past the current bucket's end: it is
// not broadcast while any vertex below that end changes anywhere. When none does, the end moves
// past the smallest value held back, and the held vertices below it are broadcast. A vertex is
// then rarely broadcast before its distance is final, which Bellman-Ford over every changed vertex
// does again and again on graphs with many paths (urand).
//
// Pulling (la/pull.hpp): a program whose active x values of an iteration are all equal (bfs: the
// frontier's level) and whose Apply ignores y for a settled vertex may say
//   bool settled(const V& value) const;  // does Apply leave this vertex alone from now on?
// On a matrix kept by rows too, a tile is then pulled instead of pushed when its column segment's
// frontier is large against its row segment's unsettled vertices (Direction::automatic,
// kPullAlpha): each unsettled row takes x at its first active column. The settled mask is the
// leader's (read in place on its rank, where it is written only in Apply, after every partial of
// the row has come in), or, for a leader on another rank, the rows this member found itself.
#include <algorithm>
#include <atomic>
#include <concepts>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "courier/core/cancel.hpp"
#include "courier/core/error.hpp"
#include "courier/core/timer.hpp"
#include "courier/la/matrix.hpp"
#include "courier/la/pull.hpp"
#include "courier/la/spmspv.hpp"
#include "courier/la/team.hpp"

namespace courier::la {

using Totals = Team::Totals;

struct ModelStats {
  unsigned iterations = 0;
  std::uint64_t messages = 0;  // sent by this rank
  std::uint64_t bytes = 0;
  std::uint64_t sparse_segments = 0;  // x segments sent or read as pairs
  std::uint64_t dense_segments = 0;
  std::uint64_t skipped_nonzeros = 0;  // entries into sinks not multiplied (computation filtering)
  std::uint64_t skipped_source_nonzeros = 0;  // entries out of sources not multiplied (ditto)
  std::uint64_t pulled_tiles = 0;      // tile products pulled rather than pushed
  unsigned sampled_iterations = 0;     // run on the tiles' samples (SamplesFirst)
  // Where the iterations' time went, in seconds, the slowest member's each: Broadcast (with the
  // jumps and the wait for the last sends), Combine, Apply (with the wait for the partials), and the
  // collective that ends an iteration (with the wait for the slowest member).
  double broadcast_seconds = 0, combine_seconds = 0, apply_seconds = 0, collective_seconds = 0;
};

// What crosses ranks: a header, then dense values or (index, value) pairs.
struct SegmentHeader {
  std::uint32_t iteration = 0;
  std::uint32_t sparse = 0;
  std::uint64_t count = 0;  // values, or pairs
  double share = 0;         // x, pulling: the active vertices' share of the segment's out-edges
};

enum class Kind : comm::tag_t { x = 1, y = 2 };

// Non-empty columns of a tile between two rounds of progress in Combine.
inline constexpr std::size_t kProgressSlice = std::size_t{1} << 14;
inline comm::tag_t tag_of(Kind kind, unsigned segment) { return (static_cast<comm::tag_t>(kind) << 32) | segment; }

template <class Program>
concept FiltersComputation = requires(const Program& p, unsigned iteration) {
  { p.needs_sinks(iteration) } -> std::convertible_to<bool>;
};

template <class Program>
concept FiltersSources = requires(const Program& p, const Totals& last) {
  { p.sources_initially() } -> std::convertible_to<double>;
  { p.sources_after(last) } -> std::convertible_to<double>;
};

template <class Program>
concept Prepares = requires(Program& p, const Totals& last) {
  p.prepare(last);
};

template <class Program>
concept SamplesFirst = Program::samples_first;
inline constexpr double kSampledUntil = 1024;

template <class Program>
concept Jumps = Program::jumps;

template <class Program>
concept Buckets = requires(const Program& p) {
  { p.bucket_width() } -> std::convertible_to<std::uint64_t>;
};

template <class Program>
concept PullsAny = requires(const Program& p, const typename Program::V& value) {
  { p.settled(value) } -> std::convertible_to<bool>;
};

template <class Program>
class Model {
 public:
  using S = typename Program::S;
  using X = typename S::X;
  using Y = typename S::Y;
  using V = typename Program::V;

  // Creates the team (collective: every rank at the same point). `tile_threads` > 1 is the MPI+X
  // mode (section 5, Fig. 2): the grid's units are the ranks themselves (one member each), and each
  // tile is split among tile_threads threads forked and joined for it, each into a private y that
  // a second fork sums into the row's. `messages`: what carries the members' messages (team.hpp).
  Model(const Matrix& matrix, comm::Runtime& runtime, sync::Channel& channel, std::vector<unsigned> pus,
        const Program& program, bool filter_activity, unsigned tile_threads = 1,
        Messages messages = Messages::endpoints, Direction direction = Direction::automatic)
      : matrix_(matrix),
        grid_(matrix.grid()),
        program_(program),
        filter_(filter_activity),
        sources_filtered_(FiltersSources<Program> && matrix.split_sources()),
        pulls_(PullsAny<Program> && matrix.by_rows() && direction != Direction::push && tile_threads <= 1),
        pulls_common_(SamplesFirst<Program> && matrix.by_rows() && matrix.sampled() && direction != Direction::push &&
                      tile_threads <= 1),
        direction_(direction),
        segments_(grid_.size()),
        inner_(tile_threads > 1 ? std::make_unique<ThreadTeam>(tile_threads, pus) : nullptr),
        team_(
            runtime, channel, grid_.threads(), tile_threads > 1 ? std::vector<unsigned>{} : std::move(pus),
            [this](unsigned member, Arrival&& a) { on_message(member, std::move(a)); }, messages) {
    if (inner_ && grid_.threads() != 1) throw Error("la: the MPI+X mode has one unit per rank");
    if (matrix.rows_only() && !Program::stationary)
      throw Error("la: a matrix kept by rows only serves stationary programs (every x dense)");
    plan();
  }

  // Runs to convergence; the values of the segments this rank leads are in values(k) afterwards.
  // Throws Cancelled, on every rank after the same iteration, when the run was asked to stop.
  void run() {
    team_.run([this](unsigned member) { member_loop(member); });
    if (team_.cancelled()) throw Cancelled();
  }

  // Segment k's values; k must be led by a member of this rank.
  std::span<const V> values(unsigned k) const { return segments_[k].value; }
  const ModelStats& stats() const { return stats_; }
  unsigned iterations() const { return stats_.iterations; }
  const Totals& totals() const { return totals_; }

 private:
  // Per segment: what its leader keeps (if the leader is here), and x_k as this rank reads it.
  struct Segment {
    bool led_here = false;
    std::vector<V> value;
    std::vector<std::uint32_t> with_out_edges;  // leader, stationary: the vertices that are columns of some tile
    std::vector<std::uint32_t> active_list;  // leader, non-stationary: what changed last, ascending
    std::vector<std::uint32_t> x_set;        // leader, non-stationary: where x_dense is off the placeholder
    std::vector<V> sent;                     // leader, Jumps: the labels as last broadcast
    std::vector<V> parent;                   // leader, Jumps: each vertex's parent (a vertex led here)
    std::vector<X> x_dense;           // leader: x_k
    std::vector<Sparse<X>> x_sparse;  // leader: x_k as pairs, when sparse
    std::vector<Y> y;                 // leader: the accumulated y_k
    std::vector<rank_t> x_ranks;      // leader: remote ranks with followers in column group k
    std::vector<unsigned> x_members;  // ... and the member there that receives x_k
    comm::Buffer x_message;           // leader: x_k as sent (a member may lead several segments)
    unsigned partials_expected = 0;   // leader: followers of row group k (other threads)
    std::vector<std::uint32_t> held;  // leader, Buckets: vertices held back for a later bucket
    Bits holding;                     // ... those still held (an entry of `held` may be stale)
    std::size_t held_count = 0;       // ... how many are
    Bits settled;                     // leader, pulling: the vertices Apply leaves alone now
    std::uint64_t settled_edges = 0;  // ... their out-edges
    std::uint64_t edges = 0;          // leader, pulling: the segment's out-edges
    double x_share = 0;               // x_k, pulling: its active vertices' share of the out-edges
    // x_k as members here read it.
    std::atomic<std::uint32_t> x_ready{0};  // iteration + 1 of the x_k in place
    bool x_is_sparse = false;
    const X* x_values = nullptr;
    const Sparse<X>* x_pairs = nullptr;
    std::size_t x_count = 0;
    comm::Buffer x_held;  // a received x_k
    // Partial y_k that arrived (leader).
    std::mutex partial_mutex;
    std::vector<Arrival> remote_partials;
    std::vector<std::vector<Y>*> local_partials;
    std::atomic<unsigned> partials_arrived{0};
  };

  // A member's row group: its tiles there (by column group), and where its partial goes.
  struct RowWork {
    unsigned row = 0;
    std::vector<const Tile*> tiles;
    std::vector<Y> partial;  // unless the member leads the row
    comm::Buffer message;    // the partial as sent to a leader on another rank
    Bits found;              // pulling, the leader on another rank: the rows found here so far
    std::size_t found_count = 0;
  };

  void plan() {
    const unsigned n = grid_.size();
    const rank_t here = matrix_.rank();
    rows_.resize(grid_.threads());
    receives_.resize(grid_.threads());
    for (unsigned k = 0; k < n; ++k) {
      Segment& s = segments_[k];
      const unsigned leader = grid_.leader(k);
      s.led_here = grid_.rank_of(leader) == here;
      std::vector<bool> followers(n, false);
      for (unsigned i = 0; i < n; ++i) {
        const unsigned g = grid_.owner(i, k);  // owners in column group k need x_k
        const rank_t r = grid_.rank_of(g);
        if (s.led_here && r != here && std::find(s.x_ranks.begin(), s.x_ranks.end(), r) == s.x_ranks.end()) {
          s.x_ranks.push_back(r);
          s.x_members.push_back(grid_.local_of(g));
        }
        const unsigned h = grid_.owner(k, i);  // owners in row group k send partials
        if (h != leader) followers[h] = true;
      }
      s.partials_expected = static_cast<unsigned>(std::count(followers.begin(), followers.end(), true));
      if (team_.broadcasts()) {
        plan_group(k);
        plan_row_group(k, followers);
      }
    }
    frontier_.resize(grid_.threads());
    todo_.resize(grid_.threads());
    for (unsigned m = 0; m < grid_.threads(); ++m) {
      const unsigned g = grid_.global(here, m);
      const std::span<const Tile> tiles = matrix_.tiles(m);
      for (unsigned i = 0; i < n; ++i) {
        bool owns = false;
        for (unsigned j = 0; j < n && !owns; ++j) owns = grid_.owner(i, j) == g;
        if (!owns) continue;
        RowWork work{i, {}, {}, {}, {}, 0};
        for (const Tile& t : tiles)
          if (t.row == i) work.tiles.push_back(&t);
        rows_[m].push_back(std::move(work));
      }
    }
  }

  // Column group k's broadcast (team.hpp): the ranks with followers in it, and the leader's if there
  // is any; on each of them but the leader's, the first member there with a tile in it takes x_k.
  void plan_group(unsigned k) {
    const unsigned n = grid_.size();
    const rank_t root = grid_.rank_of(grid_.leader(k)), here = matrix_.rank();
    bool anyone = false, mine = here == root;
    int receiver = -1;
    for (unsigned i = 0; i < n; ++i) {
      const unsigned g = grid_.owner(i, k);
      const rank_t r = grid_.rank_of(g);
      if (r == root) continue;
      anyone = true;
      if (r == here && receiver < 0) receiver = static_cast<int>(grid_.local_of(g)), mine = true;
    }
    team_.add_group(k, anyone && mine, root);
    if (receiver >= 0) receives_[static_cast<unsigned>(receiver)].push_back(k);
  }

  // Row group k's partials over MPI (team.hpp): the leader's rank and the ranks of its followers
  // elsewhere; the leader's rank takes one partial an iteration from each of those followers, at
  // most a dense segment or the pairs just below kSparseBelow of it.
  void plan_row_group(unsigned k, const std::vector<bool>& followers) {
    const unsigned leader = grid_.leader(k);
    const rank_t root = grid_.rank_of(leader), here = matrix_.rank();
    unsigned remote = 0;
    bool mine = false;
    for (unsigned h = 0; h < followers.size(); ++h) {
      if (!followers[h] || grid_.rank_of(h) == root) continue;
      ++remote;
      mine = mine || grid_.rank_of(h) == here;
    }
    const std::size_t width = grid_.end(k) - grid_.begin(k);
    const auto pairs = static_cast<std::size_t>(kSparseBelow * static_cast<double>(width));
    const std::size_t bytes =
        sizeof(SegmentHeader) + std::max(width * sizeof(Y), filter_ ? pairs * sizeof(Sparse<Y>) : 0);
    team_.add_row_group(k, remote > 0 && (mine || here == root), root, grid_.local_of(leader), remote, bytes);
  }

  // The state a member keeps, allocated by the member itself, so that its pages are first touched
  // on its own core (its NUMA node's memory) and members allocate in parallel. Nobody else reads
  // it before the collective that ends the initialisation.
  void allocate(unsigned member, const std::vector<unsigned>& led) {
    const unsigned g = grid_.global(matrix_.rank(), member);
    for (unsigned k : led) {
      Segment& s = segments_[k];
      const std::size_t width = grid_.end(k) - grid_.begin(k);
      s.value.resize(width);
      s.x_dense.assign(width, static_cast<X>(S::identity));
      if constexpr (Program::stationary) {
        const auto degrees = matrix_.out_degrees(k);
        for (std::size_t v = 0; v < width; ++v)
          if (degrees[v] != 0) s.with_out_edges.push_back(static_cast<std::uint32_t>(v));
      }
      if constexpr (Jumps<Program>) {
        s.sent.resize(width);
        s.parent.resize(width);
        for (std::size_t v = 0; v < width; ++v) s.parent[v] = grid_.begin(k) + v;
      }
      s.y.assign(width, S::identity);
      if constexpr (Buckets<Program>) s.holding.assign(width);
      if (pulls_) {
        s.settled.assign(width);
        for (std::uint32_t d : matrix_.out_degrees(k)) s.edges += d;
      }
    }
    for (RowWork& work : rows_[member]) {
      const unsigned i = work.row;
      if (grid_.leader(i) != g) work.partial.assign(grid_.end(i) - grid_.begin(i), S::identity);
      if (pulls_ && grid_.rank_of(grid_.leader(i)) != matrix_.rank()) work.found.assign(grid_.end(i) - grid_.begin(i));
    }
  }

  void member_loop(unsigned member) {
    const rank_t here = matrix_.rank();
    const unsigned g = grid_.global(here, member);
    Pending pending;
    ModelStats mine;
    // The segments this member leads (one in 2DT-Staggered: its diagonal tile's).
    std::vector<unsigned> led;
    for (unsigned k = 0; k < grid_.size(); ++k)
      if (grid_.leader(k) == g) led.push_back(k);
    allocate(member, led);
    Totals own{};
    for (unsigned k : led) {
      Segment& s = segments_[k];
      const graph::vertex_t first = grid_.begin(k);
      const auto degrees = matrix_.out_degrees(k);
      for (std::size_t v = 0; v < s.value.size(); ++v) {
        s.value[v] = program_.initial(first + v);
        const bool active = Program::stationary || program_.initially_active(first + v);
        if (!Program::stationary && active) s.active_list.push_back(static_cast<std::uint32_t>(v));
        if constexpr (Jumps<Program>) s.sent[v] = active ? static_cast<V>(S::identity) : s.value[v];
        own[0] += active;
        program_.account(first + v, s.value[v], degrees[v], own);
        mark_settled(s, v, degrees[v]);
      }
    }
    Totals last = team_.sum(member, own);
    if (member == 0) totals_ = last;
    // Every member sees the same totals, so all leave the samples at the same iteration.
    bool sampling = SamplesFirst<Program> && matrix_.sampled();
    V end = std::numeric_limits<V>::max();  // Buckets: the current bucket's end
    double sources = 0;                      // FiltersSources: every source's value, as x is made of it
    if constexpr (FiltersSources<Program>) sources = program_.sources_initially();
    if constexpr (Buckets<Program>)
      if (program_.bucket_width() > 0) end = static_cast<V>(program_.bucket_width());
    for (std::uint32_t iteration = 0;; ++iteration) {
      X common = static_cast<X>(S::identity);  // the x pulled rather than pushed, if any
      if (sampling && last[0] * kSampledUntil < static_cast<double>(grid_.vertices())) {
        sampling = false;
        if (pulls_common_) common = common_value(member, led, last);
        for (unsigned k : led) {
          Segment& s = segments_[k];
          s.active_list.resize(s.value.size());
          for (std::size_t v = 0; v < s.value.size(); ++v) s.active_list[v] = static_cast<std::uint32_t>(v);
          if constexpr (Jumps<Program>) std::fill(s.sent.begin(), s.sent.end(), static_cast<V>(S::identity));
        }
        last[0] = static_cast<double>(grid_.vertices());
      }
      if constexpr (Buckets<Program>)
        if (last[0] == 0 && last[4] > 0) end = next_bucket(member, led, end);  // the same on every member
      if (!program_.more(iteration, last[0] + last[4], last)) break;
      Timer phase;
      team_.wait_until([&] { return pending.idle(); });  // what was sent last time has left
      for (unsigned k : receives_[member]) team_.expect(k, member, tag_of(Kind::x, k));
      if constexpr (Jumps<Program>)
        for (unsigned k : led) jump(k);
      for (unsigned k : led) broadcast(k, iteration, last, pending, mine);
      mine.broadcast_seconds += phase.lap();
      const bool sinks = sinks_needed(iteration);
      for (RowWork& work : rows_[member]) combine(member, work, iteration, sinks, sampling, common, pending, mine);
      mine.combine_seconds += phase.lap();
      Totals next{};
      for (unsigned k : led) apply(k, sinks, end, sources, last, next);
      if constexpr (FiltersSources<Program>) sources = program_.sources_after(last);
      mine.apply_seconds += phase.lap();
      last = team_.sum(member, next);
      mine.collective_seconds += phase.lap();
      if (member == 0) {
        stats_.iterations = iteration + 1;
        stats_.sampled_iterations += sampling;
        totals_ = last;
      }
      if (team_.cancelled()) break;  // every member of every rank leaves here, in this iteration
    }
    team_.wait_until([&] { return pending.idle(); });
    team_.barrier(member);  // nothing is in flight for this team any more
    std::lock_guard lock(stats_mutex_);
    stats_.messages += mine.messages;
    stats_.bytes += mine.bytes;
    stats_.sparse_segments += mine.sparse_segments;
    stats_.dense_segments += mine.dense_segments;
    stats_.skipped_nonzeros += mine.skipped_nonzeros;
    stats_.skipped_source_nonzeros += mine.skipped_source_nonzeros;
    stats_.pulled_tiles += mine.pulled_tiles;
    stats_.broadcast_seconds = std::max(stats_.broadcast_seconds, mine.broadcast_seconds);
    stats_.combine_seconds = std::max(stats_.combine_seconds, mine.combine_seconds);
    stats_.apply_seconds = std::max(stats_.apply_seconds, mine.apply_seconds);
    stats_.collective_seconds = std::max(stats_.collective_seconds, mine.collective_seconds);
  }

  bool sinks_needed(unsigned iteration) const {
    if constexpr (FiltersComputation<Program>)
      return !matrix_.split() || program_.needs_sinks(iteration);
    else
      return true;
  }

  void broadcast(unsigned k, std::uint32_t iteration, const Totals& last, Pending& pending, ModelStats& mine) {
    Segment& s = segments_[k];
    const graph::vertex_t first = grid_.begin(k);
    const auto degrees = matrix_.out_degrees(k);
    bool sparse = false;
    s.x_sparse.clear();
    if constexpr (Program::stationary) {
      // A vertex without out-edges is no tile's column: its x is never read, and stays the placeholder.
      for (std::uint32_t v : s.with_out_edges)
        s.x_dense[v] = program_.broadcast(first + v, s.value[v], degrees[v], last);
    } else {
      // Only the vertices that changed (apply listed them, ascending); the last x's go back to the
      // placeholder first.
      for (std::uint32_t v : s.x_set) s.x_dense[v] = static_cast<X>(S::identity);
      // (Jumps: the labels the jump recorded, as others' hooks may be lowering the values now.)
      const std::vector<V>& values = Jumps<Program> ? s.sent : s.value;
      for (std::uint32_t v : s.active_list) s.x_dense[v] = program_.broadcast(first + v, values[v], degrees[v], last);
      s.x_set.swap(s.active_list);
      s.active_list.clear();
      if (pulls_) {
        std::uint64_t edges = 0;
        for (std::uint32_t v : s.x_set) edges += degrees[v];
        s.x_share = s.edges == 0 ? 0.0 : static_cast<double>(edges) / static_cast<double>(s.edges);
      }
      sparse = filter_ && static_cast<double>(s.x_set.size()) < kSparseBelow * static_cast<double>(s.value.size());
      if (sparse)
        for (std::uint32_t v : s.x_set) s.x_sparse.push_back({v, s.x_dense[v]});
    }
    (sparse ? mine.sparse_segments : mine.dense_segments) += 1;
    // Followers here read it in place.
    s.x_is_sparse = sparse;
    s.x_values = s.x_dense.data();
    s.x_pairs = s.x_sparse.data();
    s.x_count = sparse ? s.x_sparse.size() : s.x_dense.size();
    s.x_ready.store(iteration + 1, std::memory_order_release);
    if (s.x_ranks.empty()) return;
    comm::Buffer& out = s.x_message;
    encode(out, iteration, sparse,
           sparse ? std::span<const std::byte>(as_bytes(std::span(s.x_sparse)))
                  : std::span<const std::byte>(as_bytes(std::span(s.x_dense))),
           s.x_count, 0, s.x_share);
    if (team_.broadcasts()) {
      team_.broadcast(k, out, pending);
      ++mine.messages;
      mine.bytes += out.size();
      return;
    }
    for (std::size_t r = 0; r < s.x_ranks.size(); ++r) {
      team_.send(s.x_ranks[r], s.x_members[r], tag_of(Kind::x, k), out, pending);
      ++mine.messages;
      mine.bytes += out.size();
    }
  }

  void combine(unsigned member, RowWork& work, std::uint32_t iteration, bool sinks, bool sampling, X common,
               Pending& pending, ModelStats& mine) {
    Segment& row = segments_[work.row];
    const bool leads = grid_.leader(work.row) == grid_.global(matrix_.rank(), member);
    std::vector<Y>& y = leads ? row.y : work.partial;
    // y holds the identity: Apply put it back (or the send below, for a leader elsewhere).
    const bool local = grid_.rank_of(grid_.leader(work.row)) == matrix_.rank();
    const Bits& settled = local ? row.settled : work.found;
    // What a pull would still scan: the unsettled vertices' share of the out-edges (the leader's
    // count), or of the vertices (what this member found, for a leader elsewhere).
    double unsettled = 1;
    if (local && row.edges > 0)
      unsettled = 1 - static_cast<double>(row.settled_edges) / static_cast<double>(row.edges);
    else if (!local && !y.empty())
      unsettled = 1 - static_cast<double>(work.found_count) / static_cast<double>(y.size());
    // The tiles whose x is here first, then the others as their x comes: a member waits only when
    // every x it still needs is on its way.
    std::vector<const Tile*>& todo = todo_[member];
    todo.assign(work.tiles.begin(), work.tiles.end());
    while (!todo.empty()) {
      const auto here = [&](const Tile* t) {
        return segments_[t->column].x_ready.load(std::memory_order_acquire) == iteration + 1;
      };
      auto next = std::find_if(todo.begin(), todo.end(), here);
      if (next == todo.end()) {
        team_.wait_until([&] { return std::any_of(todo.begin(), todo.end(), here); });
        next = std::find_if(todo.begin(), todo.end(), here);
      }
      const Tile* tile = *next;
      todo.erase(next);
      const Segment& column = segments_[tile->column];
      if (pulls_ && sinks && pull_pays(*tile, column, unsettled)) {
        pull(member, *tile, column, settled, y);
        ++mine.pulled_tiles;
        continue;
      }
      if (common != static_cast<X>(S::identity) && sinks && !column.x_is_sparse && tile->by_rows.nonzeros() > 0) {
        pull_common(member, *tile, column, common, y);
        ++mine.pulled_tiles;
        continue;
      }
      multiply(sampling ? tile->sample : tile->entries, column, y);
      if (!sources_filtered_)
        multiply(tile->from_sources, column, y);
      else
        mine.skipped_source_nonzeros += tile->from_sources.nonzeros();
      if (sinks)
        multiply(tile->to_sinks, column, y);
      else
        mine.skipped_nonzeros += tile->to_sinks.nonzeros();
    }
    if (pulls_ && !local)
      for (std::size_t v = 0; v < y.size(); ++v)
        if (y[v] != S::identity && !work.found.test(v)) work.found.set(v), ++work.found_count;
    if (leads) return;
    const unsigned leader = grid_.leader(work.row);
    if (grid_.rank_of(leader) == matrix_.rank()) {
      std::lock_guard lock(row.partial_mutex);
      row.local_partials.push_back(&work.partial);
      row.partials_arrived.fetch_add(1, std::memory_order_release);
      return;
    }
    // To the leader's rank: the touched entries as pairs when few, else the whole segment.
    std::size_t touched = 0;
    for (const Y& v : y) touched += v != S::identity;
    const bool sparse = filter_ && static_cast<double>(touched) < kSparseBelow * static_cast<double>(y.size());
    comm::Buffer& out = work.message;
    if (sparse) {
      encode(out, iteration, true, {}, touched, touched * sizeof(Sparse<Y>));
      std::byte* next = out.data() + sizeof(SegmentHeader);
      for (std::size_t v = 0; v < y.size(); ++v) {
        if (y[v] == S::identity) continue;
        const Sparse<Y> pair{static_cast<std::uint32_t>(v), y[v]};
        std::memcpy(next, &pair, sizeof pair);
        next += sizeof pair;
        y[v] = S::identity;
      }
    } else {
      encode(out, iteration, false, as_bytes(std::span(y)), y.size());
      std::fill(y.begin(), y.end(), S::identity);
    }
    team_.send(grid_.rank_of(leader), grid_.local_of(leader), tag_of(Kind::y, work.row), out, pending);
    ++mine.messages;
    mine.bytes += out.size();
  }

  // y combines `tile` times x of `column`; a tile kept by rows (Matrix::rows_only) is summed by rows.
  void multiply(const Tcsc& tile, const Segment& column, std::vector<Y>& y) {
    if (tile.nonzeros() == 0) return;
    if (inner_) {
      fork_join_tile(tile, column, y);
    } else if (matrix_.rows_only()) {
      const std::size_t rows = tile.nonempty_columns();
      for (std::size_t first = 0; first < rows; first += kProgressSlice) {
        pull_sum<S>(tile, std::span(column.x_values, column.x_count), std::span(y), first, first + kProgressSlice);
        team_.progress();
      }
    } else if (column.x_is_sparse) {
      // In slices, with a round of progress between them: this member's sends go on meanwhile (a
      // rendezvous x waits for its sender's progress to be put).
      for (std::size_t first = 0; first < column.x_count; first += kProgressSlice) {
        spmspv_sparse<S>(tile, std::span(column.x_pairs + first, std::min(column.x_count - first, kProgressSlice)),
                         std::span(y));
        team_.progress();
      }
    } else {
      // In slices, as above.
      const std::size_t columns = tile.nonempty_columns();
      for (std::size_t first = 0; first < columns; first += kProgressSlice) {
        spmspv_dense<S>(tile, std::span(column.x_values, column.x_count), std::span(y), first, first + kProgressSlice);
        team_.progress();
      }
    }
  }

  // Whether pulling `tile` costs less than pushing it (Beamer's rule): a push relaxes every edge of
  // the active columns, a pull at most every edge of the unsettled rows, far fewer as it stops at
  // the first found (kPullAlpha). Each side is its share of its segment's out-edges, taken as the
  // same share of the tile's entries.
  bool pull_pays(const Tile& tile, const Segment& column, double unsettled) const {
    if (tile.by_rows.nonzeros() == 0) return false;
    return direction_ == Direction::pull || column.x_share * kPullAlpha > unsettled;
  }

  // y's unsettled rows take x at their first active column in `tile` (x as a bitset of active
  // columns; every active x of an iteration is the same, PullsAny).
  void pull(unsigned member, const Tile& tile, const Segment& column, const Bits& settled, std::vector<Y>& y) {
    Bits& frontier = frontier_[member];
    frontier.assign(grid_.end(tile.column) - grid_.begin(tile.column));
    X value = static_cast<X>(S::identity);
    if (column.x_is_sparse) {
      for (std::size_t e = 0; e < column.x_count; ++e)
        frontier.set(column.x_pairs[e].index), value = column.x_pairs[e].value;
    } else {
      for (std::size_t c = 0; c < column.x_count; ++c)
        if (column.x_values[c] != static_cast<X>(S::identity)) frontier.set(c), value = column.x_values[c];
    }
    if (value == static_cast<X>(S::identity)) return;
    const std::size_t rows = tile.by_rows.nonempty_columns();
    for (std::size_t first = 0; first < rows; first += kProgressSlice) {
      pull_any<S>(tile.by_rows, frontier, value, &settled, std::span(y), first, first + kProgressSlice);
      team_.progress();
    }
  }

  // The columns of `tile` whose x is `common` pulled (every row with one of them combines it), the
  // others pushed; x is dense.
  void pull_common(unsigned member, const Tile& tile, const Segment& column, X common, std::vector<Y>& y) {
    Bits& frontier = frontier_[member];
    frontier.assign(column.x_count);
    for (std::size_t c = 0; c < column.x_count; ++c)
      if (column.x_values[c] == common) frontier.set(c);
    const std::size_t rows = tile.by_rows.nonempty_columns();
    for (std::size_t first = 0; first < rows; first += kProgressSlice) {
      pull_any<S>(tile.by_rows, frontier, common, nullptr, std::span(y), first, first + kProgressSlice);
      team_.progress();
    }
    const std::size_t columns = tile.entries.nonempty_columns();
    for (std::size_t first = 0; first < columns; first += kProgressSlice) {
      spmspv_dense<S>(tile.entries, std::span(column.x_values, column.x_count), std::span(y), first,
                      first + kProgressSlice, common);
      team_.progress();
    }
  }

  // The x of the vertex with the most out-edges (the largest x on ties), the same on every member
  // (collective); for values exact as doubles (vertex ids below 2^53).
  X common_value(unsigned member, const std::vector<unsigned>& led, const Totals& last) {
    double degree = -1, value = -1;
    for (unsigned k : led) {
      const auto degrees = matrix_.out_degrees(k);
      const Segment& s = segments_[k];
      for (std::size_t v = 0; v < degrees.size(); ++v) {
        const double x = static_cast<double>(program_.broadcast(grid_.begin(k) + v, s.value[v], degrees[v], last));
        if (degrees[v] > degree || (degrees[v] == degree && x > value)) degree = degrees[v], value = x;
      }
    }
    const double most = team_.max(member, degree);
    const double picked = team_.max(member, degree == most ? value : -1.0);
    return picked < 0 ? static_cast<X>(S::identity) : static_cast<X>(picked);
  }

  void mark_settled(Segment& s, std::size_t v, std::uint32_t out_degree) {
    if constexpr (PullsAny<Program>) {
      if (pulls_ && !s.settled.test(v) && program_.settled(s.value[v])) s.settled.set(v), s.settled_edges += out_degree;
    }
  }

  // The MPI+X mode's tile: the columns (or x's pairs) split among the tile threads, each into its
  // own y, then the private ys summed into the row's, each fork joined before the next.
  // By rows (Matrix::rows_only), each thread sums a share of the rows straight into y.
  void fork_join_tile(const Tcsc& tile, const Segment& column, std::vector<Y>& y) {
    const unsigned threads = inner_->size();
    if (matrix_.rows_only()) {
      const std::size_t n = tile.nonempty_columns();
      inner_->run([&](unsigned t) {
        pull_sum<S>(tile, std::span(column.x_values, column.x_count), std::span(y), n * t / threads,
                    n * (t + 1) / threads);
        if (t == 0) team_.progress();
      });
      return;
    }
    private_y_.resize(threads);
    for (auto& mine : private_y_) mine.assign(y.size(), S::identity);
    inner_->run([&](unsigned t) {
      std::vector<Y>& mine = private_y_[t];
      if (column.x_is_sparse) {
        const std::size_t n = column.x_count;
        spmspv_sparse<S>(tile, std::span(column.x_pairs + n * t / threads, column.x_pairs + n * (t + 1) / threads),
                         std::span(mine));
      } else {
        const std::size_t n = tile.nonempty_columns();
        spmspv_dense<S>(tile, std::span(column.x_values, column.x_count), std::span(mine), n * t / threads,
                        n * (t + 1) / threads);
      }
      if (t == 0) team_.progress();  // the rank's main thread drives its communication
    });
    inner_->for_range(y.size(), [&](std::size_t first, std::size_t last, unsigned) {
      for (const std::vector<Y>& mine : private_y_)
        for (std::size_t r = first; r < last; ++r) y[r] = S::add(y[r], mine[r]);
    });
  }

  // Without the sinks (computation filtering), vertices without out-edges keep their values.
  // The partials of members on this rank are summed in the same pass as Apply, and every y read
  // goes back to the identity there, for the next Combine (written only where it is not, so the
  // lines of a quiet segment stay clean). A vertex that is not stationary and got nothing (y is
  // the identity) is left alone: no active in-neighbour, nothing to lower.
  void apply(unsigned k, bool sinks, V end, double sources, const Totals& last, Totals& next) {
    Segment& s = segments_[k];
    team_.wait_until([&] { return s.partials_arrived.load(std::memory_order_acquire) == s.partials_expected; });
    for (Arrival& a : s.remote_partials) {
      decode(a.bytes, [&](std::size_t v, const Y& value) { s.y.at(v) = S::add(s.y.at(v), value); });
      team_.recycle(std::move(a.bytes));
    }
    s.remote_partials.clear();
    s.partials_arrived.store(0, std::memory_order_relaxed);
    const graph::vertex_t first = grid_.begin(k);
    const auto degrees = matrix_.out_degrees(k);
    // Local copies, which the writes below cannot alias, so the program's per-iteration terms
    // (pagerank's divisions by n) leave the loop.
    const Totals before = last;
    Totals sums{};
    Program program = program_;
    if constexpr (Prepares<Program>) program.prepare(before);
    std::vector<Y*> partials;
    for (std::vector<Y>* partial : s.local_partials) partials.push_back(partial->data());
    // The sources' products, folded in (none when the sources' entries are multiplied).
    const std::span<const double> weights =
        sources_filtered_ ? matrix_.source_weights(k) : std::span<const double>{};
    const auto apply_one = [&](std::size_t v) {
      // (A stationary program's lines are all written anyway: no branch to miss.)
      Y y = s.y[v];
      if (Program::stationary || y != S::identity) s.y[v] = S::identity;
      for (Y* partial : partials) {
        Y& in = partial[v];
        if (!Program::stationary && in == S::identity) continue;
        y = S::add(y, in);
        in = S::identity;
      }
      if (!weights.empty()) y = S::add(y, static_cast<Y>(sources * weights[v]));
      if (!sinks && degrees[v] == 0) return;
      if (!Program::stationary && y == S::identity) return;
      if constexpr (Jumps<Program>) {
        sums[0] += hook(first + v, s.value[v], s.parent[v], y);
        return;
      }
      const bool changed = program.apply(first + v, y, s.value[v], degrees[v], before, sums);
      bool active = changed;
      if constexpr (Buckets<Program>) active = changed && !hold(s, v, end);
      if (!Program::stationary && active) s.active_list.push_back(static_cast<std::uint32_t>(v));
      if (changed) mark_settled(s, v, degrees[v]);
      sums[0] += active;
    };
    // Without the sinks no tile multiplied into one: their y and partials hold the identity, and a
    // stationary program visits only the others (in order, with no branch on the degree to miss).
    if (Program::stationary && !sinks)
      for (std::uint32_t v : s.with_out_edges) apply_one(v);
    else
      for (std::size_t v = 0; v < s.value.size(); ++v) apply_one(v);
    if constexpr (Buckets<Program>) sums[4] += static_cast<double>(s.held_count);
    for (std::size_t i = 0; i < sums.size(); ++i) next[i] += sums[i];
    s.local_partials.clear();
  }

  // Buckets: whether vertex v of segment s, just changed, waits for a later bucket (its value is
  // at or past `end`); a held vertex that fell below it is let go (its entry in s.held goes stale).
  static bool hold(Segment& s, std::size_t v, V end) {
    if (s.value[v] < end) {
      if (s.holding.test(v)) s.holding.reset(v), --s.held_count;
      return false;
    }
    if (!s.holding.test(v)) s.holding.set(v), s.held.push_back(static_cast<std::uint32_t>(v)), ++s.held_count;
    return true;
  }

  // Buckets, when no vertex is active anywhere but some are held: the end of the bucket of the
  // smallest value held anywhere (collective), and the held vertices below it made active.
  V next_bucket(unsigned member, const std::vector<unsigned>& led, V end) {
    double smallest = std::numeric_limits<double>::infinity();
    for (unsigned k : led)
      for (std::uint32_t v : segments_[k].held)
        if (segments_[k].holding.test(v)) smallest = std::min(smallest, static_cast<double>(segments_[k].value[v]));
    smallest = -team_.max(member, -smallest);
    const auto width = static_cast<V>(program_.bucket_width());
    end = std::max(end, (static_cast<V>(smallest) / width + 1) * width);
    for (unsigned k : led) {
      Segment& s = segments_[k];
      std::vector<std::uint32_t> kept;
      for (std::uint32_t v : s.held) {
        if (!s.holding.test(v)) continue;  // stale, or met before
        s.holding.reset(v);
        if (s.value[v] < end)
          s.active_list.push_back(v), --s.held_count;
        else
          kept.push_back(v);
      }
      for (std::uint32_t v : kept) s.holding.set(v);
      s.held.swap(kept);
      std::sort(s.active_list.begin(), s.active_list.end());  // Broadcast reads it ascending
    }
    return end;
  }

  // Jumps: lowers vertex v's label to y and, if it fell, its root's too (hooking); v becomes y's
  // child when y is led here. Returns the labels lowered.
  unsigned hook(V v, V& label, V& parent, Y y) {
    const V to = static_cast<V>(y);
    if (lower(label, to) <= to) return 0;
    const V root = root_of(v);
    const unsigned hooked = root != v && lower(*led(root, &Segment::value), to) > to;
    if (led(to, &Segment::parent) != nullptr) std::atomic_ref<V>(parent).store(to, std::memory_order_relaxed);
    return 1 + hooked;
  }

  // Jumps: segment k's vertices point at their roots and take the roots' labels (shortcutting), and
  // the labels that differ from the last broadcast become the active list.
  void jump(unsigned k) {
    Segment& s = segments_[k];
    const graph::vertex_t first = grid_.begin(k);
    for (std::size_t v = 0; v < s.value.size(); ++v) {
      V label = load(s.value[v]);
      const V parent = load(s.parent[v]);
      if (parent != first + v) {
        const V root = root_of(parent);
        if (root != parent) std::atomic_ref<V>(s.parent[v]).store(root, std::memory_order_relaxed);
        const V above = load(*led(root, &Segment::value));
        if (above < label) lower(s.value[v], above), label = above;
      }
      if (label != s.sent[v]) s.active_list.push_back(static_cast<std::uint32_t>(v)), s.sent[v] = label;
    }
  }

  // Jumps: the end of v's chain of parents (v led here).
  V root_of(V v) {
    for (;;) {
      const V parent = load(*led(v, &Segment::parent));
      if (parent == v) return v;
      v = parent;
    }
  }

  // Jumps: vertex v's entry of `field` if its segment is led on this rank, else null.
  V* led(V v, std::vector<V> Segment::*field) {
    if (v >= grid_.vertices()) return nullptr;
    const unsigned k = grid_.segment_of(static_cast<graph::vertex_t>(v));
    Segment& s = segments_[k];
    return s.led_here ? &(s.*field)[v - static_cast<V>(k) * grid_.width()] : nullptr;
  }

  static V load(const V& value) { return std::atomic_ref<const V>(value).load(std::memory_order_relaxed); }

  // value = min(value, to), atomically; returns the value before.
  static V lower(V& value, V to) {
    std::atomic_ref<V> at(value);
    V old = at.load(std::memory_order_relaxed);
    while (to < old && !at.compare_exchange_weak(old, to, std::memory_order_relaxed)) {
    }
    return old;
  }

  // Runs inside progress, for `member`: keeps the message where its reader finds it.
  void on_message(unsigned, Arrival&& a) {
    const auto kind = static_cast<Kind>(a.tag >> 32);
    const auto k = static_cast<unsigned>(a.tag & 0xffffffffu);
    if (k >= segments_.size() || a.bytes.size() < sizeof(SegmentHeader))
      throw Error("la: a message that names no segment or has no header");
    Segment& s = segments_[k];
    SegmentHeader header;
    std::memcpy(&header, a.bytes.data(), sizeof header);
    if (kind == Kind::x) {
      team_.recycle(std::move(s.x_held));
      s.x_held = std::move(a.bytes);
      s.x_is_sparse = header.sparse != 0;
      const std::byte* payload = s.x_held.data() + sizeof(SegmentHeader);
      s.x_values = reinterpret_cast<const X*>(payload);
      s.x_pairs = reinterpret_cast<const Sparse<X>*>(payload);
      s.x_count = header.count;
      s.x_share = header.share;
      s.x_ready.store(header.iteration + 1, std::memory_order_release);
    } else if (kind == Kind::y) {
      std::lock_guard lock(s.partial_mutex);
      s.remote_partials.push_back(std::move(a));
      s.partials_arrived.fetch_add(1, std::memory_order_release);
    } else {
      throw Error("la: a message of no known kind");
    }
  }

  // The header, then `payload`, in a buffer of room for `size` payload bytes (at least the payload's).
  static void encode(comm::Buffer& out, std::uint32_t iteration, bool sparse, std::span<const std::byte> payload,
                     std::size_t count, std::size_t size = 0, double share = 0) {
    const SegmentHeader header{iteration, sparse ? 1u : 0u, count, share};
    out.resize(sizeof header + std::max(size, payload.size()));
    std::memcpy(out.data(), &header, sizeof header);
    if (!payload.empty()) std::memcpy(out.data() + sizeof header, payload.data(), payload.size());
  }

  template <class Each>
  static void decode(const comm::Buffer& in, Each&& each) {
    SegmentHeader header;
    std::memcpy(&header, in.data(), sizeof header);
    const std::byte* payload = in.data() + sizeof header;
    if (header.sparse) {
      for (std::uint64_t e = 0; e < header.count; ++e) {
        Sparse<Y> pair;
        std::memcpy(&pair, payload + e * sizeof pair, sizeof pair);
        each(pair.index, pair.value);
      }
    } else {
      for (std::uint64_t e = 0; e < header.count; ++e) {
        Y value;
        std::memcpy(&value, payload + e * sizeof value, sizeof value);
        each(e, value);
      }
    }
  }

  const Matrix& matrix_;
  const Grid& grid_;
  const Program program_;
  const bool filter_;
  const bool sources_filtered_;  // entries out of sources folded into Apply (FiltersSources)
  const bool pulls_;  // the program pulls where that pays (PullsAny, a matrix kept by rows)
  const bool pulls_common_;  // leaving the samples, the most common x is pulled (SamplesFirst)
  const Direction direction_;
  std::vector<Segment> segments_;
  std::vector<std::vector<RowWork>> rows_;  // by member
  std::vector<std::vector<unsigned>> receives_;  // by member: the column groups whose x it takes by broadcast
  std::vector<Bits> frontier_;                   // by member: the x it pulls from, as a bitset
  std::vector<std::vector<const Tile*>> todo_;   // by member: Combine's tiles not yet multiplied
  std::mutex stats_mutex_;
  ModelStats stats_;
  Totals totals_{};
  std::unique_ptr<ThreadTeam> inner_;      // the MPI+X mode's tile threads
  std::vector<std::vector<Y>> private_y_;  // ... and their private ys
  Team team_;  // last: its handler uses the members above
};

}  // namespace courier::la
