// Triangle counts (per vertex and total) on every policy and 1-4 ranks equal the sequential
// reference.
#include "courier/algo/tc.hpp"

#include <gtest/gtest.h>

#include "algo/algo_graphs.hpp"
#include "courier/graph/csr.hpp"
#include "courier/graph/reference/triangles.hpp"
#include "courier/graph/transform.hpp"
#include "courier/vertex/gather.hpp"
#include "support/ranks.hpp"

namespace tc_test {

using namespace courier;

TEST(AlgoTriangles, EqualsReference) {
  for (const auto& g : test_support::test_graphs(false)) {
    SCOPED_TRACE(g.name);
    const graph::Csr undirected = graph::simple_undirected(graph::build_csr(g.edges));
    const auto expected = graph::reference::triangles(undirected);
    const graph::EdgeList edges = graph::to_edge_list(undirected);
    if (g.name == "kron:9" || g.name == "pieces") {
      ASSERT_GT(expected.total, 0u);
    }
    for (dist::Policy policy : {dist::Policy::oec, dist::Policy::iec, dist::Policy::cvc, dist::Policy::hash})
      for (int ranks = 1; ranks <= 4; ++ranks) {
        SCOPED_TRACE(::testing::Message() << dist::to_string(policy) << " x " << ranks);
        const auto parts = dist::partition_in_memory(edges, policy, ranks, false);
        std::vector<std::uint64_t> per_vertex;
        std::vector<std::uint64_t> totals(static_cast<std::size_t>(ranks));
        test_support::on_every_rank(parts, 2, [&](vertex::Engine& engine) {
          const auto mine = algo::tc(engine);
          auto all = vertex::gather_masters<std::uint64_t>(engine, mine.per_vertex);
          totals[engine.rank()] = mine.total;
          if (engine.rank() == 0) per_vertex = std::move(all);
        });
        ASSERT_EQ(per_vertex, expected.per_vertex);
        for (auto total : totals) ASSERT_EQ(total, expected.total);
      }
  }
}

}  // namespace tc_test
