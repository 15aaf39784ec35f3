// High-diameter graphs (paths and grids, as road networks are): bfs, sssp and cc equal the
// sequential references on every policy, 1-4 ranks, ranks as threads over the loopback and the
// lci channel, from a source at an end, in the middle and at the other end, so frontiers cross
// ranks both ways and ranks run levels alone. And a round's scanning follows its work: on a
// long path, the bitset words a run visits grow with the path, not with its square.
#include <gtest/gtest.h>

#include <iterator>

#include "courier/algo/bfs.hpp"
#include "courier/algo/cc.hpp"
#include "courier/algo/sssp.hpp"
#include "courier/graph/csr.hpp"
#include "courier/graph/generate.hpp"
#include "courier/graph/reference/bfs.hpp"
#include "courier/graph/reference/connected_components.hpp"
#include "courier/graph/reference/sssp.hpp"
#include "courier/vertex/gather.hpp"
#include "support/ranks.hpp"
#include "support/sanitized.hpp"

namespace long_graphs_test {

using namespace courier;
using graph::vertex_t;

namespace {

constexpr dist::Policy kPolicies[] = {dist::Policy::oec, dist::Policy::iec, dist::Policy::cvc, dist::Policy::hash};

graph::EdgeList lattice(graph::Generator kind, std::uint64_t rows, std::uint64_t columns, bool weights) {
  graph::GeneratorOptions options;
  options.kind = kind;
  options.rows = rows;
  options.columns = columns;
  options.weights = weights;
  options.threads = 1;
  return graph::generate(options);
}

struct Lattice {
  std::string name;
  graph::EdgeList edges;
};

std::vector<Lattice> lattices(bool weights) {
  return {{"path:3000", lattice(graph::Generator::path, 1, 3000, weights)},
          {"grid:40x45", lattice(graph::Generator::grid, 40, 45, weights)}};
}

// fn(engine) on every rank of every policy and rank count, over `channel`; the masters' values
// gathered to rank 0 must equal `expected`. Under a sanitizer every rank count once, the policies
// in turn from the caller's `turn` (support/sanitized.hpp).
template <class Run>
void expect_everywhere(const graph::EdgeList& edges, const std::vector<std::uint64_t>& expected, Run run,
                       test_support::Channel channel, std::size_t turn) {
  for (std::size_t p = 0; p < std::size(kPolicies); ++p)
    for (int ranks = 1; ranks <= 4; ++ranks) {
      if (!test_support::walks(turn + static_cast<std::size_t>(ranks), p, std::size(kPolicies))) continue;
      const dist::Policy policy = kPolicies[p];
      SCOPED_TRACE(::testing::Message() << dist::to_string(policy) << " x " << ranks);
      const auto parts = dist::partition_in_memory(edges, policy, ranks, true);
      std::vector<std::uint64_t> all;
      test_support::on_every_rank(
          parts, 2,
          [&](vertex::Engine& engine) {
            auto gathered = vertex::gather_masters<std::uint64_t>(engine, run(engine));
            engine.finish();
            if (engine.rank() == 0) all = std::move(gathered);
          },
          channel);
      ASSERT_EQ(all, expected);
    }
}

std::vector<vertex_t> sources(vertex_t n) { return {0, n / 2 + 7, n - 1}; }

class LongGraphs : public ::testing::TestWithParam<test_support::Channel> {};

std::string channel_name(const ::testing::TestParamInfo<test_support::Channel>& info) {
  return info.param == test_support::Channel::loopback ? "loopback" : "lci";
}

}  // namespace

TEST_P(LongGraphs, BfsEqualsTheReference) {
  std::size_t turn = 0;
  for (const Lattice& g : lattices(false)) {
    const graph::Csr csr = graph::build_csr(g.edges);
    for (vertex_t source : sources(g.edges.num_vertices)) {
      SCOPED_TRACE(::testing::Message() << g.name << " from " << source);
      expect_everywhere(
          g.edges, graph::reference::bfs(csr, source).level,
          [&](vertex::Engine& engine) { return algo::bfs(engine, {.source = source}); }, GetParam(), turn++);
    }
  }
}

TEST_P(LongGraphs, SsspEqualsTheReferenceByBucketsAndByBellmanFord) {
  std::size_t turn = 0;
  for (const Lattice& g : lattices(true)) {
    const graph::Csr csr = graph::build_csr(g.edges);
    for (vertex_t source : sources(g.edges.num_vertices))
      for (std::uint64_t delta : {std::uint64_t{0}, std::uint64_t{32}}) {
        SCOPED_TRACE(::testing::Message() << g.name << " from " << source << " delta " << delta);
        expect_everywhere(
            g.edges, graph::reference::sssp(csr, source).dist_int,
            [&](vertex::Engine& engine) { return algo::sssp(engine, {.source = source, .delta = delta}); }, GetParam(),
            turn++);
      }
  }
}

TEST_P(LongGraphs, CcEqualsTheReferenceByUnionFindAndByLabelPropagation) {
  std::size_t turn = 0;
  for (const Lattice& g : lattices(false)) {
    SCOPED_TRACE(g.name);
    std::vector<std::uint64_t> expected;
    for (vertex_t label : graph::reference::connected_components(graph::build_csr(g.edges))) expected.push_back(label);
    auto widen = [](const std::vector<vertex_t>& labels) {
      return std::vector<std::uint64_t>(labels.begin(), labels.end());
    };
    expect_everywhere(
        g.edges, expected, [&](vertex::Engine& engine) { return widen(algo::cc_union_find(engine)); }, GetParam(),
        turn++);
    expect_everywhere(
        g.edges, expected, [&](vertex::Engine& engine) { return widen(algo::cc_label_propagation(engine)); },
        GetParam(), turn++);
  }
}

INSTANTIATE_TEST_SUITE_P(Channels, LongGraphs,
                         ::testing::Values(test_support::Channel::loopback, test_support::Channel::lci), channel_name);

// bfs and sssp on a path of 40,000 vertices from one end: as many levels as vertices. If a level
// scanned its bitsets whole (a frontier's 300-odd words a rank), the run would visit about 10^7
// words; following the work, it visits a few tens a level. On a grid, where both ranks are active in
// most rounds, each round's words stay within a few per active vertex and edge.
TEST(LongGraphs, RoundsScanInProportionToTheirWorkNotTheGraph) {
  constexpr vertex_t n = 40000;
  for (bool weights : {false, true}) {
    const graph::EdgeList path = lattice(graph::Generator::path, 1, n, weights);
    for (int ranks : {1, 2, 3}) {
      SCOPED_TRACE(::testing::Message() << (weights ? "sssp" : "bfs") << " x " << ranks);
      const auto parts = dist::partition_in_memory(path, dist::Policy::oec, ranks, true);
      vertex::RunStats stats;
      std::vector<std::uint64_t> result;
      test_support::on_every_rank(parts, 2, [&](vertex::Engine& engine) {
        const auto mine = weights ? algo::sssp(engine, {.source = 0, .delta = 32}) : algo::bfs(engine, {.source = 0});
        auto all = vertex::gather_masters<std::uint64_t>(engine, mine);
        auto s = engine.finish();
        if (engine.rank() == 0) {
          result = std::move(all);
          stats = std::move(s);
        }
      });
      ASSERT_EQ(result.size(), n);
      EXPECT_EQ(result[n - 1], weights ? graph::reference::sssp(graph::build_csr(path), 0).dist_int[n - 1] : n - 1);
      EXPECT_GE(stats.levels, n);
      EXPECT_LT(stats.scanned_words, 60 * n) << stats.summary();  // O(n^2 / 64) would be about 10^7
      for (const vertex::RoundStats& round : stats.rounds)
        EXPECT_LT(round.scanned_words, 60 * (round.visited + round.levels) + 2000) << round.visited;
    }
  }
  const graph::EdgeList grid = lattice(graph::Generator::grid, 300, 300, false);
  const auto parts = dist::partition_in_memory(grid, dist::Policy::oec, 2, true);
  vertex::RunStats stats;
  test_support::on_every_rank(parts, 2, [&](vertex::Engine& engine) {
    algo::bfs(engine, {.source = 0});
    auto s = engine.finish();
    if (engine.rank() == 0) stats = std::move(s);
  });
  ASSERT_GE(stats.rounds.size(), 300u);
  std::uint64_t rounds_with_both = 0;
  for (const vertex::RoundStats& round : stats.rounds) {
    rounds_with_both += round.levels == 1;
    // a frontier's touched words (at most 8 times them once they are many), over a few passes
    EXPECT_LT(round.scanned_words, 60 * (round.visited + round.levels) + 2000) << round.visited;
  }
  EXPECT_GT(rounds_with_both, 200u);
}

}  // namespace long_graphs_test
