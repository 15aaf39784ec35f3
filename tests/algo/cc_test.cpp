// Component labels on every policy and 1-4 ranks equal the sequential reference, for label
// propagation and union-find; union-find takes one round on one rank.
#include "courier/algo/cc.hpp"

#include <gtest/gtest.h>

#include <functional>

#include "algo/algo_graphs.hpp"
#include "courier/graph/csr.hpp"
#include "courier/graph/reference/connected_components.hpp"
#include "courier/vertex/gather.hpp"
#include "support/ranks.hpp"

namespace cc_test {

using namespace courier;

namespace {

using Cc = std::function<std::vector<graph::vertex_t>(vertex::Engine&)>;

void check_cc(const graph::EdgeList& edges, Cc cc, std::initializer_list<unsigned> thread_counts = {2}) {
  const auto expected = graph::reference::connected_components(graph::build_csr(edges));
  for (dist::Policy policy : {dist::Policy::oec, dist::Policy::iec, dist::Policy::cvc, dist::Policy::hash})
    for (int ranks = 1; ranks <= 4; ++ranks)
      for (unsigned threads : thread_counts) {
        SCOPED_TRACE(::testing::Message() << dist::to_string(policy) << " x " << ranks << " x " << threads);
        const auto parts = dist::partition_in_memory(edges, policy, ranks, true);
        std::vector<graph::vertex_t> label;
        test_support::on_every_rank(parts, threads, [&](vertex::Engine& engine) {
          const auto mine = cc(engine);
          auto all = vertex::gather_masters<graph::vertex_t>(engine, mine);
          if (engine.rank() == 0) label = std::move(all);
        });
        ASSERT_EQ(label, expected);
      }
}

}  // namespace

TEST(AlgoCc, LabelPropagationEqualsReference) {
  for (const auto& g : test_support::test_graphs(false)) {
    SCOPED_TRACE(g.name);
    check_cc(g.edges, [](vertex::Engine& e) { return algo::cc_label_propagation(e); });
  }
}

// Issue 19: label propagation pushing every round, pulling every round, and switching.
TEST(AlgoCc, LabelPropagationEqualsReferenceInEveryDirection) {
  for (algo::Direction direction : {algo::Direction::push, algo::Direction::pull, algo::Direction::automatic})
    for (const auto& g : test_support::test_graphs(false)) {
      SCOPED_TRACE(::testing::Message() << g.name << " direction " << static_cast<int>(direction));
      check_cc(g.edges, [direction](vertex::Engine& e) { return algo::cc_label_propagation(e, direction); });
    }
}

TEST(AlgoCc, UnionFindEqualsReference) {
  for (const auto& g : test_support::test_graphs(false)) {
    SCOPED_TRACE(g.name);
    // A team of one joins its forest with plain stores, a larger one lock-free: both.
    check_cc(g.edges, algo::cc_union_find<graph::vertex_t>, {1, 2});
  }
}

// The 32-bit labels the CLI runs below 2^32 vertices: the same components.
TEST(AlgoCc, UnionFindWith32BitLabelsEqualsReference) {
  for (const auto& g : test_support::test_graphs(false)) {
    SCOPED_TRACE(g.name);
    check_cc(g.edges, [](vertex::Engine& e) {
      const std::vector<std::uint32_t> labels = algo::cc_union_find<std::uint32_t>(e);
      return std::vector<graph::vertex_t>(labels.begin(), labels.end());
    });
  }
}

TEST(AlgoCc, UnionFindTakesNoRoundOnOneRankAndFewOnFour) {
  const auto edges = test_support::path(300);
  for (int ranks : {1, 4}) {
    const auto parts = dist::partition_in_memory(edges, dist::Policy::oec, ranks, false);
    std::size_t rounds = 0;
    test_support::on_every_rank(parts, 2, [&](vertex::Engine& engine) {
      algo::cc_union_find(engine);
      const auto stats = engine.finish();
      if (engine.rank() == 0) rounds = stats.rounds.size();
    });
    // The path crosses ranks at most ranks - 1 times.
    EXPECT_LE(rounds, static_cast<std::size_t>(ranks) + 1) << ranks << " ranks";
    if (ranks == 1) {
      EXPECT_EQ(rounds, 0u);  // the roots are the labels: nothing to agree on
    }
  }
}

}  // namespace cc_test
