// SSSP distances on every policy and 1-4 ranks equal the sequential reference, for Bellman-Ford
// and delta-stepping.
#include "courier/algo/sssp.hpp"

#include <gtest/gtest.h>

#include "algo/algo_graphs.hpp"
#include "courier/vertex/gather.hpp"
#include "courier/graph/csr.hpp"
#include "courier/graph/reference/sssp.hpp"
#include "support/ranks.hpp"

namespace sssp_test {

using namespace courier;

namespace {

void check_sssp(const graph::EdgeList& edges, graph::vertex_t source, std::uint64_t delta,
                algo::Direction direction = algo::Direction::automatic) {
  const auto expected = graph::reference::sssp(graph::build_csr(edges), source).dist_int;
  for (dist::Policy policy : {dist::Policy::oec, dist::Policy::iec, dist::Policy::cvc, dist::Policy::hash})
    for (int ranks = 1; ranks <= 4; ++ranks) {
      SCOPED_TRACE(::testing::Message() << dist::to_string(policy) << " x " << ranks);
      const auto parts = dist::partition_in_memory(edges, policy, ranks, true);
      std::vector<std::uint64_t> distance;
      test_support::on_every_rank(parts, 2, [&](vertex::Engine& engine) {
        const auto mine = algo::sssp(engine, {.source = source, .delta = delta, .direction = direction});
        auto all = vertex::gather_masters<std::uint64_t>(engine, mine);
        if (engine.rank() == 0) distance = std::move(all);
      });
      ASSERT_EQ(distance, expected);
    }
}

}  // namespace

TEST(AlgoSssp, BellmanFordEqualsReference) {
  for (const auto& g : test_support::test_graphs(true)) {
    SCOPED_TRACE(g.name);
    check_sssp(g.edges, 0, 0);
  }
}

TEST(AlgoSssp, DeltaSteppingEqualsReference) {
  for (const auto& g : test_support::test_graphs(true)) {
    SCOPED_TRACE(g.name);
    for (std::uint64_t delta : {1u, 40u}) check_sssp(g.edges, 5, delta);
  }
}

// Issue 19: relaxations pushed every round, pulled every round, and switching.
TEST(AlgoSssp, EveryDirectionEqualsReference) {
  for (algo::Direction direction : {algo::Direction::push, algo::Direction::pull})
    for (const auto& g : test_support::test_graphs(true)) {
      SCOPED_TRACE(::testing::Message() << g.name << " direction " << static_cast<int>(direction));
      for (std::uint64_t delta : {0u, 40u}) check_sssp(g.edges, 5, delta, direction);
    }
}

TEST(AlgoSssp, UnweightedGraphIsAnInputError) {
  const auto parts = dist::partition_in_memory(test_support::path(10), dist::Policy::oec, 1, false);
  EXPECT_THROW(test_support::on_every_rank(parts, 1, [](vertex::Engine& engine) { algo::sssp(engine); }), InputError);
}

// Distances past 32 bits: the run in 32-bit labels notices them, and the one in 64 bits that
// follows gives the exact distances (here up to 5 x 4e9), on every policy and rank count.
TEST(AlgoSssp, DistancesBeyond32BitsAreExact) {
  graph::EdgeList chain;
  chain.num_vertices = 8;
  std::vector<std::uint32_t> weights;
  for (graph::vertex_t v = 0; v + 1 < 6; ++v) {
    chain.edges.push_back({v, v + 1});
    weights.push_back(4'000'000'000u);
  }
  chain.edges.push_back({0, 6});  // a near vertex, and 7 is never reached
  weights.push_back(3);
  chain.weights = std::move(weights);
  for (std::uint64_t delta : {0ull, 1ull, 1'000'000'000ull}) check_sssp(chain, 0, delta);
}

}  // namespace sssp_test
