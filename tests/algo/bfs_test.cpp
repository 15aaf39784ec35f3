// BFS levels on every policy and 1-4 ranks equal the sequential reference, push-only and
// direction-optimizing.
#include "courier/algo/bfs.hpp"

#include <gtest/gtest.h>

#include "algo/algo_graphs.hpp"
#include "courier/vertex/gather.hpp"
#include "courier/graph/csr.hpp"
#include "courier/graph/reference/bfs.hpp"
#include "support/ranks.hpp"

namespace bfs_test {

using namespace courier;

namespace {

void check_bfs(const graph::EdgeList& edges, graph::vertex_t source, algo::Direction direction) {
  const auto expected = graph::reference::bfs(graph::build_csr(edges), source).level;
  for (dist::Policy policy : {dist::Policy::oec, dist::Policy::iec, dist::Policy::cvc, dist::Policy::hash})
    for (int ranks = 1; ranks <= 4; ++ranks) {
      SCOPED_TRACE(::testing::Message() << dist::to_string(policy) << " x " << ranks);
      const auto parts = dist::partition_in_memory(edges, policy, ranks, true);
      std::vector<std::uint64_t> level;
      test_support::on_every_rank(parts, 2, [&](vertex::Engine& engine) {
        const auto mine = algo::bfs(engine, {.source = source, .direction = direction});
        auto all = vertex::gather_masters<std::uint64_t>(engine, mine);
        engine.finish();
        if (engine.rank() == 0) level = std::move(all);
      });
      ASSERT_EQ(level, expected);
    }
}

}  // namespace

TEST(AlgoBfs, DirectionOptimizingEqualsReference) {
  for (const auto& g : test_support::test_graphs(false)) {
    SCOPED_TRACE(g.name);
    check_bfs(g.edges, 0, algo::Direction::automatic);
  }
}

TEST(AlgoBfs, PushOnlyEqualsReference) {
  for (const auto& g : test_support::test_graphs(false)) {
    SCOPED_TRACE(g.name);
    check_bfs(g.edges, 3, algo::Direction::push);
  }
}

TEST(AlgoBfs, PullOnlyEqualsReference) {
  for (const auto& g : test_support::test_graphs(false)) {
    SCOPED_TRACE(g.name);
    check_bfs(g.edges, 3, algo::Direction::pull);
  }
}

TEST(AlgoBfs, SourceOutOfRangeIsAnInputError) {
  const auto parts = dist::partition_in_memory(test_support::path(10), dist::Policy::oec, 1, true);
  EXPECT_THROW(test_support::on_every_rank(parts, 1, [](vertex::Engine& engine) { algo::bfs(engine, {.source = 10}); }),
               InputError);
}

}  // namespace bfs_test
