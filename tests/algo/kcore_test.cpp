// Core numbers on every policy and 1-4 ranks equal the sequential reference.
#include "courier/algo/kcore.hpp"

#include <gtest/gtest.h>

#include "algo/algo_graphs.hpp"
#include "courier/vertex/gather.hpp"
#include "courier/graph/csr.hpp"
#include "courier/graph/reference/kcore.hpp"
#include "courier/graph/transform.hpp"
#include "support/ranks.hpp"

namespace kcore_test {

using namespace courier;

TEST(AlgoKcore, EqualsReference) {
  for (const auto& g : test_support::test_graphs(false)) {
    SCOPED_TRACE(g.name);
    const graph::Csr undirected = graph::simple_undirected(graph::build_csr(g.edges));
    const auto expected = graph::reference::kcore(undirected);
    const graph::EdgeList edges = graph::to_edge_list(undirected);
    for (dist::Policy policy : {dist::Policy::oec, dist::Policy::iec, dist::Policy::cvc, dist::Policy::hash})
      for (int ranks = 1; ranks <= 4; ++ranks) {
        SCOPED_TRACE(::testing::Message() << dist::to_string(policy) << " x " << ranks);
        const auto parts = dist::partition_in_memory(edges, policy, ranks, false);
        std::vector<std::uint32_t> core;
        test_support::on_every_rank(parts, 2, [&](vertex::Engine& engine) {
          const auto mine = algo::kcore(engine);
          auto all = vertex::gather_masters<std::uint32_t>(engine, mine);
          if (engine.rank() == 0) core = std::move(all);
        });
        ASSERT_EQ(core, expected);
      }
  }
}

}  // namespace kcore_test
