// SpMV through the mailbox, with delegates (paper 001, Algorithm 2), against a sequential y = A x
// computed here from the edge list, on 1, 2, 3, 4 and 8 ranks of the local transport, every
// routing scheme, simulated layouts and delegate thresholds from none to every vertex. With
// integer x and weights every sum is exact whatever its order, so results must be identical;
// with real x they must agree to rounding.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>

#include "algo_graphs.hpp"
#include "courier/algo/mailbox_spmv.hpp"
#include "courier/core/error.hpp"
#include "mailbox_apps.hpp"

namespace mailbox_spmv_test {

namespace mb = courier::mailbox;
namespace graph = courier::graph;
namespace algo = courier::algo;
using courier::test_support::MailboxSetup;
using courier::test_support::on;

namespace {

std::vector<double> weights_of(const graph::EdgeList& edges) {
  std::vector<double> w(edges.edges.size(), 1.0);
  if (const auto* u = std::get_if<std::vector<std::uint32_t>>(&edges.weights)) w.assign(u->begin(), u->end());
  return w;
}

// y[u] = sum over edges u -> v of weight * x[v], straight from the definition.
std::vector<double> sequential_spmv(const graph::EdgeList& edges, const std::vector<double>& x) {
  const std::vector<double> w = weights_of(edges);
  std::vector<double> y(edges.num_vertices, 0.0);
  for (std::size_t i = 0; i < edges.edges.size(); ++i) y[edges.edges[i].src] += w[i] * x[edges.edges[i].dst];
  return y;
}

std::vector<double> integer_x(graph::vertex_t n) {
  std::vector<double> x(n);
  for (graph::vertex_t v = 0; v < n; ++v) x[v] = static_cast<double>(v % 13) - 4.0;
  return x;
}

std::vector<double> real_x(graph::vertex_t n) {
  std::vector<double> x(n);
  for (graph::vertex_t v = 0; v < n; ++v) x[v] = 1.0 / static_cast<double>(v + 1);
  return x;
}

struct Outcome {
  std::vector<double> y;
  std::uint64_t delegates = 0;
};

// Builds the matrix once and multiplies `times` times by the same x (the last y is returned; all
// must be equal, which checks that a second multiply starts clean).
Outcome run_spmv(const graph::EdgeList& edges, const std::vector<double>& x, const MailboxSetup& setup,
                 algo::DelegatePolicy policy = {}, int times = 1) {
  const std::vector<double> all_weights = weights_of(edges);
  algo::MailboxSpmvOptions options;
  options.mailbox = setup.config();
  options.delegates = policy;
  std::atomic<std::uint64_t> delegates{0};
  std::atomic<bool> repeat_differs{false};
  Outcome out;
  out.y = courier::test_support::run_round_robin<double>(
      edges, setup, NAN, [&](courier::comm::Runtime& rt, std::span<const graph::Edge> mine) {
        const std::size_t first = static_cast<std::size_t>(mine.data() - edges.edges.data());
        const std::span<const double> my_weights(all_weights.data() + first, mine.size());
        algo::MailboxMatrix a(rt, mine, my_weights, edges.num_vertices, options);
        const courier::mailbox::RoundRobin own(rt.ranks(), rt.rank(), edges.num_vertices);
        std::vector<double> my_x(own.owned());
        for (std::size_t i = 0; i < my_x.size(); ++i) my_x[i] = x[own.global(i)];
        std::vector<double> y = a.multiply(my_x);
        for (int t = 1; t < times; ++t)
          if (a.multiply(my_x) != y) repeat_differs = true;
        if (rt.rank() == 0) delegates = a.delegates().size();
        return y;
      });
  EXPECT_FALSE(repeat_differs) << "a repeated multiply gave another y, " << setup.describe();
  out.delegates = delegates;
  return out;
}

void expect_exact(const graph::EdgeList& edges, const MailboxSetup& setup, algo::DelegatePolicy policy,
                  const std::string& name, int times = 1) {
  const std::vector<double> x = integer_x(edges.num_vertices);
  const std::vector<double> expected = sequential_spmv(edges, x);
  const Outcome got = run_spmv(edges, x, setup, policy, times);
  ASSERT_EQ(got.y.size(), expected.size());
  for (std::size_t v = 0; v < expected.size(); ++v)
    ASSERT_EQ(got.y[v], expected[v]) << name << ", " << setup.describe() << ", row " << v;
}

}  // namespace

TEST(MailboxSpmv, MatchesTheSequentialProductOnEveryTestGraphAndRankCount) {
  for (const auto& g : courier::test_support::test_graphs(true))
    for (int ranks : {1, 2, 3, 4, 8}) expect_exact(g.edges, on(ranks), {}, g.name);
}

TEST(MailboxSpmv, MatchesThroughEverySchemeAndLayout) {
  const graph::EdgeList kron = courier::test_support::generated(graph::Generator::kronecker, 9, true);
  const graph::EdgeList star = courier::test_support::weighted(courier::test_support::star(300), 5);
  for (mb::Routing routing : {mb::Routing::no_route, mb::Routing::node_local, mb::Routing::node_remote, mb::Routing::nlnr}) {
    expect_exact(kron, on(8, routing, mb::Layout{4, 2}), {}, "kron:9");
    expect_exact(kron, on(8, routing, mb::Layout{2, 4}), {}, "kron:9");
    expect_exact(star, on(3, routing, mb::Layout{2, 2}, 1),
                 algo::DelegatePolicy::above(10), "star");
    expect_exact(kron, on(4, routing, mb::Layout{2, 2}, 100), {}, "kron:9");
  }
}

TEST(MailboxSpmv, EveryDelegateThresholdGivesTheSameProduct) {
  const graph::EdgeList kron = courier::test_support::generated(graph::Generator::kronecker, 9, true);
  for (int ranks : {1, 2, 3, 4}) {
    const MailboxSetup setup = on(ranks, mb::Routing::node_remote, mb::Layout{(ranks + 1) / 2, 2});
    expect_exact(kron, setup, algo::DelegatePolicy::none(), "kron:9, no delegates");
    expect_exact(kron, setup, algo::DelegatePolicy::above(0), "kron:9, every index with a nonzero delegated");
    expect_exact(kron, setup, algo::DelegatePolicy::above(20), "kron:9, degree above 20 delegated");
  }
}

TEST(MailboxSpmv, RepeatedMultipliesStartClean) {
  const graph::EdgeList kron = courier::test_support::generated(graph::Generator::kronecker, 8, true);
  for (int ranks : {2, 4}) expect_exact(kron, on(ranks), algo::DelegatePolicy::above(12), "kron:8", 4);
}

TEST(MailboxSpmv, RealVectorsAgreeToRounding) {
  const graph::EdgeList kron = courier::test_support::generated(graph::Generator::kronecker, 9, true);
  const std::vector<double> x = real_x(kron.num_vertices);
  const std::vector<double> expected = sequential_spmv(kron, x);
  const Outcome got = run_spmv(kron, x, on(3, mb::Routing::nlnr, mb::Layout{2, 2}));
  EXPECT_GT(got.delegates, 0u) << "kron:9 should have hubs above the automatic threshold";
  for (std::size_t v = 0; v < expected.size(); ++v)
    ASSERT_NEAR(got.y[v], expected[v], 1e-12 * (1.0 + std::abs(expected[v]))) << "row " << v;
}

TEST(MailboxSpmv, SurvivesATransportThatDelaysAndRefusesFrames) {
  const graph::EdgeList kron = courier::test_support::generated(graph::Generator::kronecker, 8, true);
  MailboxSetup setup = on(4, mb::Routing::nlnr, mb::Layout{2, 2}, 256);
  setup.local.faults.enabled = true;
  setup.local.faults.seed = 5;
  expect_exact(kron, setup, algo::DelegatePolicy::above(16), "kron:8 with faults", 2);
}

TEST(MailboxSpmv, WrongInputIsAClearError) {
  const graph::EdgeList path = courier::test_support::path(10);
  EXPECT_THROW(courier::comm::run_local(2,
                                        [&](courier::comm::Runtime& rt) {
                                          const std::vector<double> too_few(1, 1.0);
                                          algo::MailboxMatrix a(rt, path.edges, too_few, path.num_vertices, {});
                                        }),
               courier::Error);
}

}  // namespace mailbox_spmv_test
