#include "courier/algo/degree.hpp"

#include <gtest/gtest.h>

#include "algo/algo_graphs.hpp"
#include "courier/vertex/gather.hpp"
#include "courier/graph/reference.hpp"
#include "support/ranks.hpp"

namespace degree_test {

using namespace courier;

TEST(AlgoDegree, EqualsReferenceOnEveryPolicyAndRankCount) {
  for (const auto& [name, edges] : test_support::test_graphs(false)) {
    const auto expected = graph::reference::out_degrees(graph::build_csr(edges));
    for (dist::Policy policy : {dist::Policy::oec, dist::Policy::iec, dist::Policy::cvc, dist::Policy::hash})
      for (int ranks : {1, 2, 3, 4}) {
        SCOPED_TRACE(::testing::Message() << name << " " << dist::to_string(policy) << " x" << ranks);
        std::vector<std::uint64_t> got;
        test_support::on_every_rank(dist::partition_in_memory(edges, policy, ranks, false), 2, [&](vertex::Engine& e) {
          auto all = vertex::gather_masters<std::uint64_t>(e, algo::out_degrees(e));
          if (e.rank() == 0) got = std::move(all);
        });
        EXPECT_EQ(got, expected);
      }
  }
}

}  // namespace degree_test
