// PageRank on every policy and 1-4 ranks is within 1e-6 (L1) of the sequential reference, with
// the same number of steps; a fixed step count stops there.
#include "courier/algo/pagerank.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "algo/algo_graphs.hpp"
#include "courier/engine/gather.hpp"
#include "courier/graph/csr.hpp"
#include "courier/graph/reference/pagerank.hpp"
#include "support/ranks.hpp"

using namespace courier;

namespace {

void check_pagerank(const graph::EdgeList& edges, const algo::PagerankOptions& options) {
  const auto expected = graph::reference::pagerank(
      graph::build_csr(edges), {options.damping, options.tolerance, options.max_iterations});
  for (dist::Policy policy : {dist::Policy::oec, dist::Policy::iec, dist::Policy::cvc, dist::Policy::hash})
    for (int ranks = 1; ranks <= 4; ++ranks) {
      SCOPED_TRACE(::testing::Message() << dist::to_string(policy) << " x " << ranks);
      const auto parts = dist::partition_in_memory(edges, policy, ranks, true);
      std::vector<double> rank;
      unsigned iterations = 0;
      test_support::on_every_rank(parts, 2, [&](engine::Engine& engine) {
        const auto mine = algo::pagerank(engine, options);
        auto all = engine::gather_masters<double>(engine, mine.rank);
        if (engine.rank() == 0) {
          rank = std::move(all);
          iterations = mine.iterations;
        }
      });
      ASSERT_EQ(rank.size(), expected.rank.size());
      double l1 = 0;
      for (std::size_t v = 0; v < rank.size(); ++v) l1 += std::abs(rank[v] - expected.rank[v]);
      EXPECT_LT(l1, 1e-6);
      // Sums in another order may cross the tolerance one step apart.
      EXPECT_NEAR(iterations, expected.iterations, 1);
    }
}

}  // namespace

TEST(AlgoPagerank, ConvergedEqualsReference) {
  for (const auto& g : test_support::test_graphs(false)) {
    SCOPED_TRACE(g.name);
    check_pagerank(g.edges, {.tolerance = 1e-9});
  }
}

TEST(AlgoPagerank, FixedIterationsEqualReference) {
  for (const auto& g : test_support::test_graphs(false)) {
    SCOPED_TRACE(g.name);
    check_pagerank(g.edges, {.tolerance = 0, .max_iterations = 7});
  }
}
