// PageRank on every policy and 1-4 ranks is within 1e-6 (L1) of the sequential reference, with
// the same number of steps; a fixed step count stops there. Also: each single step (the update
// fused into the next step's shares, on policies with mirrors), the choice of float shares, a
// hub whose sum over many in-edges needs double, and a tolerance loose enough for float shares.
#include "courier/algo/pagerank.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "algo/algo_graphs.hpp"
#include "courier/vertex/gather.hpp"
#include "courier/graph/csr.hpp"
#include "courier/graph/reference/pagerank.hpp"
#include "support/ranks.hpp"

namespace pagerank_test {

using namespace courier;

namespace {

constexpr dist::Policy kPolicies[] = {dist::Policy::oec, dist::Policy::iec, dist::Policy::cvc, dist::Policy::hash};

struct Gathered {
  std::vector<double> rank;
  unsigned iterations = 0;
  double last_change = 0;
};

Gathered run_pagerank(const graph::EdgeList& edges, dist::Policy policy, int ranks, const algo::PagerankOptions& options) {
  const auto parts = dist::partition_in_memory(edges, policy, ranks, true);
  Gathered result;
  test_support::on_every_rank(parts, 2, [&](vertex::Engine& engine) {
    const auto mine = algo::pagerank(engine, options);
    auto all = vertex::gather_masters<double>(engine, mine.rank);
    if (engine.rank() == 0) result = {std::move(all), mine.iterations, mine.last_change};
  });
  return result;
}

graph::reference::PagerankResult reference(const graph::EdgeList& edges, const algo::PagerankOptions& options) {
  return graph::reference::pagerank(graph::build_csr(edges), {options.damping, options.tolerance, options.max_iterations});
}

double l1_distance(const std::vector<double>& a, const std::vector<double>& b) {
  double l1 = 0;
  for (std::size_t v = 0; v < a.size(); ++v) l1 += std::abs(a[v] - b[v]);
  return l1;
}

// Within `l1_bound` of the reference, and at most one step apart (sums in another order may cross
// the tolerance one step apart), on every policy and 1-4 ranks.
void check_pagerank(const graph::EdgeList& edges, const algo::PagerankOptions& options, double l1_bound = 1e-6) {
  const auto expected = reference(edges, options);
  for (dist::Policy policy : kPolicies)
    for (int ranks = 1; ranks <= 4; ++ranks) {
      SCOPED_TRACE(::testing::Message() << dist::to_string(policy) << " x " << ranks);
      const Gathered got = run_pagerank(edges, policy, ranks, options);
      ASSERT_EQ(got.rank.size(), expected.rank.size());
      EXPECT_LT(l1_distance(got.rank, expected.rank), l1_bound);
      EXPECT_NEAR(got.iterations, expected.iterations, 1);
    }
}

// Every vertex v >= n/2 points at v - n/2 and at v / 4, so destinations mostly live at lower ids
// than their sources (on other ranks under oec: masters whose in-edges are all elsewhere); the
// lower half has no out-edges but every seventh vertex, so the dangling mass changes each step.
graph::EdgeList downhill(graph::vertex_t n) {
  graph::EdgeList list;
  list.num_vertices = n;
  for (graph::vertex_t v = n / 2; v < n; ++v) {
    list.edges.push_back({v, v - n / 2});
    list.edges.push_back({v, v / 4});
  }
  for (graph::vertex_t v = 0; v < n / 2; v += 7) list.edges.push_back({v, (v * 5 + 3) % n});
  return list;
}

// One hub and `leaves` vertices pointing at it and back: the hub's sum adds `leaves` nearly equal
// shares, which a float sum would round far beyond the tolerance.
graph::EdgeList two_way_star(graph::vertex_t leaves) {
  graph::EdgeList list;
  list.num_vertices = leaves + 1;
  for (graph::vertex_t v = 1; v <= leaves; ++v) {
    list.edges.push_back({v, 0});
    list.edges.push_back({0, v});
  }
  return list;
}

}  // namespace

TEST(AlgoPagerank, ConvergedEqualsReference) {
  for (const auto& g : test_support::test_graphs(false)) {
    SCOPED_TRACE(g.name);
    check_pagerank(g.edges, {.tolerance = 1e-9});
  }
}

// Issue 19: pushing (scattered shares, atomic sums) and pulling give the reference's ranks.
TEST(AlgoPagerank, PushAndPullEqualReference) {
  for (algo::Direction direction : {algo::Direction::push, algo::Direction::pull})
    for (const auto& g : test_support::test_graphs(false)) {
      SCOPED_TRACE(::testing::Message() << g.name << " direction " << static_cast<int>(direction));
      check_pagerank(g.edges, {.tolerance = 1e-9, .direction = direction});
      check_pagerank(g.edges, {.tolerance = 0, .max_iterations = 3, .direction = direction});
    }
}

TEST(AlgoPagerank, FixedIterationsEqualReference) {
  for (const auto& g : test_support::test_graphs(false)) {
    SCOPED_TRACE(g.name);
    check_pagerank(g.edges, {.tolerance = 0, .max_iterations = 7});
  }
}

// Each step alone (a new rank, its change, the next share and dangling mass, in one pass after
// the reduce): the ranks and the last change after 0, 1, 2 and 3 steps, where a stale sum, share or
// dangling mass cannot hide behind later steps.
TEST(AlgoPagerank, EveryStepEqualsReference) {
  auto graphs = test_support::test_graphs(false);
  graphs.push_back({"downhill:240", downhill(240)});
  for (const auto& g : graphs)
    for (unsigned steps = 0; steps <= 3; ++steps) {
      SCOPED_TRACE(::testing::Message() << g.name << ", " << steps << " steps");
      const algo::PagerankOptions options{.tolerance = 0, .max_iterations = steps};
      const auto expected = reference(g.edges, options);
      for (dist::Policy policy : kPolicies)
        for (int ranks = 1; ranks <= 4; ++ranks) {
          SCOPED_TRACE(::testing::Message() << dist::to_string(policy) << " x " << ranks);
          const Gathered got = run_pagerank(g.edges, policy, ranks, options);
          ASSERT_EQ(got.rank.size(), expected.rank.size());
          EXPECT_LT(l1_distance(got.rank, expected.rank), 1e-6);
          EXPECT_EQ(got.iterations, steps);
          EXPECT_NEAR(got.last_change, expected.last_change, 1e-6);
        }
    }
}

// Float shares for a fixed step count or a loose tolerance at the usual damping; doubles where
// rounding could stall the stop (a tight tolerance) or its drift could pass 1e-6 (damping near 1).
TEST(AlgoPagerank, FloatSharesOnlyWhereTheyCannotMatter) {
  EXPECT_TRUE(algo::pagerank_float_shares({.damping = 0.85, .tolerance = 0, .max_iterations = 20}));
  EXPECT_TRUE(algo::pagerank_float_shares({.damping = 0.85, .tolerance = 1e-4}));
  EXPECT_FALSE(algo::pagerank_float_shares({.damping = 0.85, .tolerance = 1e-9}));
  EXPECT_FALSE(algo::pagerank_float_shares({.damping = 0.85, .tolerance = 1e-6}));
  EXPECT_FALSE(algo::pagerank_float_shares({.damping = 0.95, .tolerance = 0}));
  EXPECT_FALSE(algo::pagerank_float_shares({.damping = 1.0, .tolerance = 0}));
  EXPECT_TRUE(algo::pagerank_float_shares({.damping = 0.0, .tolerance = 0}));
  // --shares double: never, wherever floats would do.
  EXPECT_FALSE(algo::pagerank_float_shares({.damping = 0.85, .tolerance = 0, .double_shares = true}));
}

// Double shares where floats would do give the reference's ranks within 1e-10 (sums in another
// order differ by about 1e-12); float shares are 3e-8 off on this graph.
TEST(AlgoPagerank, DoubleSharesEqualTheReferenceToRounding) {
  const graph::EdgeList star = two_way_star(60000);
  check_pagerank(star, {.tolerance = 0, .max_iterations = 10, .double_shares = true}, 1e-10);
}

// With float shares the sums stay double: a hub adding 60,000 shares.
TEST(AlgoPagerank, HubSumStaysDouble) {
  const algo::PagerankOptions options{.tolerance = 0, .max_iterations = 10};
  ASSERT_TRUE(algo::pagerank_float_shares(options));
  check_pagerank(two_way_star(60000), options);
}

// A tolerance loose enough for float shares (GAP's 1e-4) stops within a step of the reference.
TEST(AlgoPagerank, LooseToleranceStopsWithTheReference) {
  const algo::PagerankOptions options{.tolerance = 1e-4};
  ASSERT_TRUE(algo::pagerank_float_shares(options));
  for (const auto& g : test_support::test_graphs(false)) {
    SCOPED_TRACE(g.name);
    check_pagerank(g.edges, options, 1e-4 + 1e-6);
  }
}

// Damping near 1 keeps double shares and still meets the reference.
TEST(AlgoPagerank, HighDampingEqualsReference) {
  const algo::PagerankOptions options{.damping = 0.99, .tolerance = 0, .max_iterations = 50};
  ASSERT_FALSE(algo::pagerank_float_shares(options));
  for (const auto& g : test_support::test_graphs(false)) {
    SCOPED_TRACE(g.name);
    check_pagerank(g.edges, options);
  }
}

}  // namespace pagerank_test
