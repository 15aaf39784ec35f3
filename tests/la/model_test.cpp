// la::Model on ranks of the local transport, each a team of threads that are communication
// endpoints, running the algorithms' own la programs (src/algo/la_programs.hpp): the la engine's
// concurrency -- Broadcast, Combine posting partials, Apply, pulls, pointer jumping, buckets, the
// MPI+X mode's forked tiles -- with nothing above la/, so ThreadSanitizer checks it without the
// algorithm library. Every engine option, shape and graph is tests/algo/la_engine_test.cpp's.
#include "courier/la/model.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "algo/algo_graphs.hpp"
#include "courier/graph/csr.hpp"
#include "courier/graph/reference/bfs.hpp"
#include "courier/graph/reference/connected_components.hpp"
#include "courier/graph/reference/pagerank.hpp"
#include "courier/graph/reference/sssp.hpp"
#include "courier/graph/transform.hpp"
#include "la_programs.hpp"
#include "support/local_stacks.hpp"

namespace model_test {

namespace {

using namespace courier;
using graph::vertex_t;
namespace programs = algo::la_programs;

struct Shape {
  int ranks;
  unsigned threads;
  unsigned tile_threads = 1;  // > 1: the MPI+X mode (one unit per rank, tiles forked)
};
const std::vector<Shape> kShapes{{1, 2}, {2, 2}, {3, 1}, {2, 1, 2}};

// The edges of `g` whose tiles `rank` owns, as the engine's loader moves them there.
graph::EdgeList edges_of(const graph::EdgeList& g, const la::Grid& grid, rank_t rank) {
  graph::EdgeList mine;
  mine.num_vertices = g.num_vertices;
  std::vector<std::uint32_t> weights;
  const auto* w = std::get_if<std::vector<std::uint32_t>>(&g.weights);
  for (std::size_t k = 0; k < g.edges.size(); ++k) {
    const graph::Edge e = g.edges[k];
    if (grid.rank_of(grid.owner(grid.segment_of(e.dst), grid.segment_of(e.src))) != rank) continue;
    mine.edges.push_back(e);
    if (w) weights.push_back((*w)[k]);
  }
  if (w) mine.weights = std::move(weights);
  return mine;
}

template <class V>
struct Run {
  std::vector<V> values;  // every rank's leaders' values put together
  la::ModelStats stats;   // rank 0's
  std::uint64_t skipped_source_nonzeros = 0;  // every rank's
};

// Runs `program` over `g` at `shape`.
template <class Program>
Run<typename Program::V> run_model(const graph::EdgeList& g, Shape shape, la::Forms forms, const Program& program,
                                   la::Direction direction = la::Direction::automatic, bool filter_activity = true) {
  Run<typename Program::V> run{std::vector<typename Program::V>(g.num_vertices), {}};
  std::atomic<std::uint64_t> skipped_source_nonzeros{0};
  const sync::StackSpec spec{.threads_per_rank = shape.tile_threads > 1 ? 1 : shape.threads};
  test_support::on_local_stacks(shape.ranks, spec, [&](comm::Runtime& runtime, sync::Stack& stack) {
    const la::Grid grid(shape.ranks, spec.threads_per_rank, g.num_vertices);
    const la::Matrix matrix(grid, runtime.rank(), edges_of(g, grid, runtime.rank()), stack.collective(), forms);
    la::Model<Program> model(matrix, runtime, stack.channel(), {}, program, filter_activity, shape.tile_threads,
                             la::Messages::endpoints, direction);
    model.run();
    // Each rank writes the segments it leads: disjoint ranges, read after every rank joined.
    for (unsigned k = 0; k < grid.size(); ++k)
      if (grid.rank_of(grid.leader(k)) == runtime.rank())
        std::copy(model.values(k).begin(), model.values(k).end(), run.values.begin() + grid.begin(k));
    if (runtime.rank() == 0) run.stats = model.stats();
    skipped_source_nonzeros += model.stats().skipped_source_nonzeros;
  });
  run.skipped_source_nonzeros = skipped_source_nonzeros;
  return run;
}

std::string name(Shape s) {
  return std::to_string(s.ranks) + "x" + std::to_string(s.threads) +
         (s.tile_threads > 1 ? " (MPI+X, " + std::to_string(s.tile_threads) + " per tile)" : "");
}

TEST(LaModel, BfsPushedAndPulledEqualsTheReference) {
  const graph::EdgeList g = test_support::generated(graph::Generator::kronecker, 10, false);
  const graph::Csr csr = graph::build_csr(g);
  vertex_t source = 0;  // the most out-edges: levels deep and wide enough to pull some
  for (vertex_t v = 1; v < g.num_vertices; ++v)
    if (csr.degree(v) > csr.degree(source)) source = v;
  const programs::Bfs bfs{.source = source};
  const std::vector<std::uint64_t> expected = graph::reference::bfs(csr, source).level;
  for (const Shape& shape : kShapes) {
    SCOPED_TRACE(name(shape));
    // Pulling needs the tiles by rows, and one unit per tile (not the MPI+X mode).
    const bool pulls = shape.tile_threads == 1;
    const auto automatic = run_model(g, shape, {.by_rows = pulls}, bfs, la::Direction::automatic);
    EXPECT_EQ(automatic.values, expected);
    if (pulls) {
      EXPECT_GT(automatic.stats.pulled_tiles, 0u) << "the widest levels pull";
    }
    const auto pushed = run_model(g, shape, {}, bfs, la::Direction::push, false);
    EXPECT_EQ(pushed.values, expected) << "dense segments only";
    EXPECT_EQ(pushed.stats.sparse_segments, 0u);
  }
}

TEST(LaModel, CcOnSamplesWithPointerJumpingEqualsTheReference) {
  const graph::EdgeList g = graph::symmetrize(test_support::pieces());
  const graph::EdgeList kron = graph::symmetrize(test_support::generated(graph::Generator::kronecker, 10, false));
  for (const graph::EdgeList* graph : {&g, &kron}) {
    const std::vector<vertex_t> labels = graph::reference::connected_components(graph::build_csr(*graph));
    const std::vector<std::uint64_t> expected(labels.begin(), labels.end());
    for (const Shape& shape : kShapes) {
      SCOPED_TRACE(name(shape));
      const bool pulls = shape.tile_threads == 1;
      const auto run = run_model(*graph, shape, {.by_rows = pulls, .sampled = true}, programs::Cc{});
      EXPECT_EQ(run.values, expected);
      EXPECT_GT(run.stats.sampled_iterations, 0u);
    }
  }
}

TEST(LaModel, SsspInBucketsEqualsTheReference) {
  const graph::EdgeList g = test_support::generated(graph::Generator::uniform, 10, true);
  const std::vector<std::uint64_t> expected = graph::reference::sssp(graph::build_csr(g), 3).dist_int;
  for (const Shape& shape : kShapes) {
    SCOPED_TRACE(name(shape));
    programs::Sssp sssp;
    sssp.source = 3;
    sssp.delta = 64;
    EXPECT_EQ(run_model(g, shape, {}, sssp).values, expected);
  }
}

// Threads are persistent (MPI*X: one fork and join per run): each member's thread applies its
// led vertices in every iteration, so some thread applies as many vertices as a leader holds
// times the iterations. Threads made anew each iteration would start their count from zero.
namespace persistence {
thread_local std::uint64_t applied = 0;  // this thread's apply() calls, over the whole run
std::atomic<std::uint64_t> most{0};      // the most any thread made
}  // namespace persistence

struct CountingPagerank : programs::Pagerank<la::PlusTimes> {
  bool apply(vertex_t v, S::Y y, V& rank, std::uint32_t out_degree, const la::Totals& last, la::Totals& next) const {
    const std::uint64_t mine = ++persistence::applied;
    std::uint64_t seen = persistence::most.load();
    while (mine > seen && !persistence::most.compare_exchange_weak(seen, mine)) {
    }
    return Pagerank::apply(v, y, rank, out_degree, last, next);
  }
};

TEST(LaModel, ItsThreadsLiveThroughEveryIteration) {
  const graph::EdgeList g = test_support::generated(graph::Generator::kronecker, 9, false);
  constexpr unsigned kIterations = 12;
  const CountingPagerank pagerank{
      {.n = static_cast<double>(g.num_vertices), .damping = 0.85, .tolerance = 0, .max_iterations = kIterations}};
  for (const Shape shape : {Shape{1, 2}, Shape{2, 2}}) {
    SCOPED_TRACE(name(shape));
    persistence::most = 0;
    const auto run = run_model(g, shape, {}, pagerank);
    ASSERT_EQ(run.stats.iterations, kIterations);
    // p x t threads lead a segment of n / (p t) vertices each, applied every iteration.
    const std::uint64_t segment = g.num_vertices / (static_cast<std::uint64_t>(shape.ranks) * shape.threads);
    EXPECT_GE(persistence::most.load(), segment * kIterations);
  }
}

TEST(LaModel, PagerankSplitAtTheSinksAndByRowsEqualsTheReference) {
  const graph::EdgeList g = test_support::generated(graph::Generator::kronecker, 10, false);
  const graph::reference::PagerankOptions options{.tolerance = 0, .max_iterations = 20};
  const std::vector<double> expected = graph::reference::pagerank(graph::build_csr(g), options).rank;
  const programs::Pagerank<la::PlusTimes> pagerank{
      .n = static_cast<double>(g.num_vertices), .damping = 0.85, .tolerance = 0, .max_iterations = 20};
  const auto l1 = [&](const std::vector<double>& ranks) {
    double sum = 0;
    for (std::size_t v = 0; v < ranks.size(); ++v) sum += std::abs(ranks[v] - expected[v]);
    return sum;
  };
  for (const Shape& shape : kShapes) {
    SCOPED_TRACE(name(shape));
    const auto split = run_model(g, shape, {.split_sinks = true}, pagerank);
    EXPECT_LT(l1(split.values), 1e-6);
    EXPECT_GT(split.stats.skipped_nonzeros, 0u) << "the sinks wait for the last step";
    EXPECT_LT(l1(run_model(g, shape, {.rows_only = true}, pagerank).values), 1e-6) << "pulled sums";
  }
}

// Computation filtering of the sources (la/model.hpp's FiltersSources): on a directed graph of
// sources, cycles, sinks and isolated vertices, and on a directed Kronecker graph, pagerank split at
// the sources multiplies no entry out of a source in any iteration (the statistics count them all
// skipped: their one product was summed at load), folds their sum into Apply, and equals the
// reference in fixed steps (sinks split too) and with a tolerance, by columns and by rows.
TEST(LaModel, PagerankFoldsTheSourcesInAndEqualsTheReference) {
  graph::EdgeList mixed;
  mixed.num_vertices = 50;
  for (vertex_t s = 0; s < 10; ++s) mixed.edges.push_back({s, 10 + (s * 7) % 20});
  mixed.edges.push_back({3, 47});  // a source into a sink
  for (vertex_t r = 10; r < 30; ++r) {
    mixed.edges.push_back({r, 10 + (r + 1) % 20});
    mixed.edges.push_back({r, 30 + r % 15});
  }
  const graph::EdgeList kron = test_support::generated(graph::Generator::kronecker, 9, false);
  for (const graph::EdgeList* g : std::vector<const graph::EdgeList*>{&mixed, &kron}) {
    const graph::Csr csr = graph::build_csr(*g);
    std::vector<std::uint32_t> in(g->num_vertices, 0);
    for (const graph::Edge& e : g->edges) ++in[e.dst];
    std::uint64_t out_of_sources = 0;
    for (const graph::Edge& e : g->edges) out_of_sources += in[e.src] == 0;
    ASSERT_GT(out_of_sources, 0u);
    for (const double tolerance : {0.0, 1e-10}) {
      const graph::reference::PagerankOptions options{.tolerance = tolerance, .max_iterations = 20};
      const std::vector<double> expected = graph::reference::pagerank(csr, options).rank;
      const programs::Pagerank<la::PlusSecond> pagerank{
          .n = static_cast<double>(g->num_vertices), .damping = 0.85, .tolerance = tolerance, .max_iterations = 20};
      const auto l1 = [&](const std::vector<double>& ranks) {
        double sum = 0;
        for (std::size_t v = 0; v < ranks.size(); ++v) sum += std::abs(ranks[v] - expected[v]);
        return sum;
      };
      for (const Shape& shape : kShapes) {
        for (const bool rows_only : {false, true}) {
          SCOPED_TRACE(name(shape) + (rows_only ? " by rows" : "") + " tolerance " + std::to_string(tolerance) +
                       (g == &kron ? " kron" : " mixed"));
          const auto run =
              run_model(*g, shape, {.split_sinks = true, .split_sources = true, .rows_only = rows_only}, pagerank);
          EXPECT_LT(l1(run.values), 1e-6);
          EXPECT_EQ(run.skipped_source_nonzeros, out_of_sources * run.stats.iterations);
          if (tolerance == 0) {
            EXPECT_EQ(run.stats.iterations, 20u);
          }
          const auto whole = run_model(*g, shape, {.rows_only = rows_only}, pagerank);
          EXPECT_LT(l1(whole.values), 1e-6);
          EXPECT_EQ(whole.skipped_source_nonzeros, 0u);
        }
      }
    }
  }
}

}  // namespace

}  // namespace model_test
