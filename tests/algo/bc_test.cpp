// Betweenness centrality on the vertex engine equals the sequential reference on every policy,
// 1-4 ranks, 1-2 threads, by edges and by weights; the check from the definition catches a wrong
// value; sources are sampled reproducibly among the vertices with out-edges.
#include "courier/algo/bc.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "algo/algo_graphs.hpp"
#include "courier/algo/builtin.hpp"
#include "courier/graph/csr.hpp"
#include "courier/graph/load.hpp"
#include "courier/vertex/gather.hpp"
#include "support/ranks.hpp"

namespace bc_test {

using namespace courier;

namespace {

harness::Request request(const std::string& sources, bool weighted) {
  harness::Request r;
  r.options.set("sources", sources);
  if (weighted) r.options.set("weighted", "true");
  return r;
}

std::vector<double> reference(const graph::Csr& csr, const harness::Request& r) {
  return std::get<std::vector<double>>(builtin_registry().algorithm("bc").reference(csr, r).values);
}

void expect_near(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t v = 0; v < want.size(); ++v)
    ASSERT_NEAR(got[v], want[v], 1e-9 * std::max(1.0, std::abs(want[v]))) << "vertex " << v;
}

std::vector<graph::vertex_t> ids(const std::string& text) {
  std::vector<graph::vertex_t> list;
  for (std::size_t begin = 0; begin < text.size();) {
    const std::size_t end = std::min(text.find(',', begin), text.size());
    list.push_back(std::stoull(text.substr(begin, end - begin)));
    begin = end + 1;
  }
  return list;
}

std::vector<double> on_ranks(const graph::EdgeList& edges, dist::Policy policy, int ranks, unsigned threads,
                             const algo::BcOptions& options,
                             test_support::Channel channel = test_support::Channel::loopback) {
  const auto parts = dist::partition_in_memory(edges, policy, ranks, false);
  std::vector<double> centrality;
  test_support::on_every_rank(
      parts, threads,
      [&](vertex::Engine& engine) {
        auto all = vertex::gather_masters<double>(engine, algo::bc(engine, options));
        engine.finish();
        if (engine.rank() == 0) centrality = std::move(all);
      },
      channel);
  return centrality;
}

// Every policy, 1-4 ranks, one or two threads each.
void check_bc(const graph::EdgeList& edges, const std::string& sources, bool weighted) {
  const auto want = reference(graph::build_csr(edges), request(sources, weighted));
  for (dist::Policy policy : {dist::Policy::oec, dist::Policy::iec, dist::Policy::cvc, dist::Policy::hash})
    for (int ranks = 1; ranks <= 4; ++ranks) {
      const unsigned threads = 1 + static_cast<unsigned>(ranks % 2);
      SCOPED_TRACE(::testing::Message() << dist::to_string(policy) << " x " << ranks << " x " << threads);
      expect_near(on_ranks(edges, policy, ranks, threads, {.sources = ids(sources), .weighted = weighted}), want);
    }
}

}  // namespace

TEST(AlgoBc, ByEdgesEqualsReference) {
  for (const auto& g : test_support::test_graphs(false)) {
    SCOPED_TRACE(g.name);
    check_bc(g.edges, "0,3,17,3,100000", false);  // a repeated source counts twice; one beyond the graph none
  }
}

TEST(AlgoBc, OnAGridFromEverySourceEqualsReference) {
  graph::GeneratorOptions grid;
  grid.kind = graph::Generator::grid;
  grid.rows = 9;
  grid.columns = 7;
  std::string all;
  for (int v = 0; v < 63; ++v) {
    if (v != 0) all += ',';
    all += std::to_string(v);
  }
  check_bc(graph::generate(grid), all, false);
}

TEST(AlgoBc, ByWeightsEqualsReference) {
  for (const auto& g : test_support::test_graphs(true)) {
    SCOPED_TRACE(g.name);
    check_bc(g.edges, "0,5,64,299", true);
  }
}

TEST(AlgoBc, Rome99ByWeightsEqualsReference) {
  const std::filesystem::path path = std::filesystem::path(COURIER_SHARED_DATA) / "rome99.gr";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no rome99.gr in " << COURIER_SHARED_DATA;
  const graph::EdgeList edges = graph::load_edge_list(path.string());
  const graph::Csr csr = graph::build_csr(edges);
  const auto sources = algo::sample_sources(
      csr.num_vertices(), [&](graph::vertex_t v) { return csr.degree(v) > 0; }, 3, 7);
  std::string text;
  for (auto s : sources) {
    if (!text.empty()) text += ',';
    text += std::to_string(s);
  }
  const auto want = reference(csr, request(text, true));
  for (auto [policy, ranks] : {std::pair{dist::Policy::oec, 1}, {dist::Policy::cvc, 3}, {dist::Policy::hash, 2}}) {
    SCOPED_TRACE(::testing::Message() << dist::to_string(policy) << " x " << ranks);
    expect_near(on_ranks(edges, policy, ranks, 2, {.sources = sources, .weighted = true}), want);
    expect_near(on_ranks(edges, policy, ranks, 1, {.sources = sources, .weighted = false}),
                reference(csr, request(text, false)));
  }
}

TEST(AlgoBc, OverTheLciChannelEqualsReference) {
  const graph::EdgeList edges = test_support::generated(graph::Generator::kronecker, 9, true);
  const auto want = reference(graph::build_csr(edges), request("1,2,40", true));
  for (int ranks : {2, 3})
    for (auto channel : {test_support::Channel::lci, test_support::Channel::lci_thread}) {
      SCOPED_TRACE(::testing::Message() << ranks << " ranks, channel " << static_cast<int>(channel));
      expect_near(on_ranks(edges, dist::Policy::cvc, ranks, 2, {.sources = {1, 2, 40}, .weighted = true}, channel),
                  want);
    }
}

// The check from the definition holds the reference's own values and catches one that is off.
TEST(AlgoBc, TheDefinitionCheckCatchesAWrongCentrality) {
  const auto& bc = builtin_registry().algorithm("bc");
  for (bool weighted : {false, true}) {
    const graph::Csr csr = graph::build_csr(test_support::generated(graph::Generator::kronecker, 9, true));
    const harness::Request r = request("0,1,2,3,4,5", weighted);
    harness::Output out = bc.reference(csr, r);
    const harness::Verdict good = bc.verify(csr, r, out, true);
    EXPECT_EQ(good.mismatch, "") << good.verifier;
    EXPECT_NE(good.verifier.find("from the definition for 16 vertices"), std::string::npos) << good.verifier;
    auto& c = std::get<std::vector<double>>(out.values);
    *std::max_element(c.begin(), c.end()) *= 1.001;  // the most central vertex is always checked
    const harness::Verdict bad = bc.verify(csr, r, out, true);
    EXPECT_NE(bad.mismatch.find("pair dependencies from the definition"), std::string::npos) << bad.mismatch;
  }
}

TEST(AlgoBc, SourcesAreSampledReproduciblyAmongVerticesWithOutEdges) {
  auto odd = [](graph::vertex_t v) { return v % 2 == 1; };
  const auto a = algo::sample_sources(1000, odd, 20, 5), b = algo::sample_sources(1000, odd, 20, 5);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, algo::sample_sources(1000, odd, 20, 6));
  ASSERT_EQ(a.size(), 20u);
  std::vector<graph::vertex_t> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::unique(sorted.begin(), sorted.end()), sorted.end());
  for (auto s : a) EXPECT_TRUE(odd(s)) << s;
  EXPECT_EQ(algo::sample_sources(10, odd, 99, 1), (std::vector<graph::vertex_t>{1, 3, 5, 7, 9}));
}

TEST(AlgoBc, ExactIsRefusedAboveItsLimitNamingTheOption) {
  const graph::Csr csr = graph::build_csr(test_support::path(50));
  harness::Request r = request("0", false);
  r.options.set("exact", "true");
  r.options.set("exact-max-vertices", "49");
  try {
    builtin_registry().algorithm("bc").reference(csr, r);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("raise --exact-max-vertices"), std::string::npos) << e.what();
  }
  r.options.set("exact-max-vertices", "50");
  EXPECT_EQ(reference(csr, r)[25], 25.0 * 24.0);  // each of sources 0..24 passes through 25 to 26..49
}

TEST(AlgoBc, AZeroWeightIsAnInputErrorOnEveryRank) {
  graph::EdgeList edges = test_support::weighted(test_support::path(20), 1);
  std::get<std::vector<std::uint32_t>>(edges.weights)[7] = 0;
  const auto parts = dist::partition_in_memory(edges, dist::Policy::cvc, 2, false);
  EXPECT_THROW(test_support::on_every_rank(
                   parts, 1, [](vertex::Engine& engine) { algo::bc(engine, {.sources = {0}, .weighted = true}); }),
               InputError);
}

}  // namespace bc_test
