// Degree counting through the mailbox (paper 001, Algorithm 1) against graph::reference, on 1, 2,
// 3, 4, 7 and 8 ranks of the local transport, every routing scheme, simulated layouts included.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "courier/algo/mailbox_degree.hpp"
#include "courier/comm/local_world.hpp"
#include "courier/graph/csr.hpp"
#include "courier/graph/generate.hpp"
#include "courier/graph/reference.hpp"
#include "courier/graph/transform.hpp"

namespace mailbox_degree_test {

namespace mb = courier::mailbox;
namespace graph = courier::graph;

namespace {

// In- plus out-degree, as Algorithm 1 counts (self loops twice).
std::vector<std::uint64_t> reference_degrees(const graph::EdgeList& edges) {
  const graph::Csr csr = graph::build_csr(edges);
  std::vector<std::uint64_t> degrees = graph::reference::out_degrees(csr);
  const std::vector<std::uint64_t> in = graph::reference::out_degrees(graph::transpose(csr));
  for (std::size_t v = 0; v < degrees.size(); ++v) degrees[v] += in[v];
  return degrees;
}

void check(const graph::EdgeList& edges, int ranks, std::optional<mb::Layout> layout, mb::Routing routing,
           std::size_t capacity) {
  const std::vector<std::uint64_t> expected = reference_degrees(edges);
  std::vector<std::uint64_t> got(expected.size(), ~std::uint64_t{0});
  courier::comm::run_local(ranks, [&](courier::comm::Runtime& rt) {
    // Each rank takes a contiguous slice of the edges, as a loader would.
    const std::size_t m = edges.edges.size(), P = static_cast<std::size_t>(ranks), r = static_cast<std::size_t>(rt.rank());
    std::span<const graph::Edge> mine(edges.edges.data() + m * r / P, m * (r + 1) / P - m * r / P);
    mb::Config config;
    config.capacity_bytes = capacity;
    config.routing = routing;
    config.layout = layout;
    const courier::algo::MailboxDegrees d = courier::algo::mailbox_degrees(rt, mine, edges.num_vertices, config);
    for (std::size_t i = 0; i < d.counts.size(); ++i) got[i * P + r] = d.counts[i];  // disjoint slots per rank
  });
  const std::string what = std::to_string(ranks) + " ranks" + (layout ? " as " + to_string(*layout) : "") + ", " +
                           mb::to_string(routing);
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t v = 0; v < expected.size(); ++v) ASSERT_EQ(got[v], expected[v]) << what << ", vertex " << v;
}

}  // namespace

TEST(MailboxDegree, MatchesTheReferenceOnKron) {
  graph::GeneratorOptions options;
  options.scale = 10;
  const graph::EdgeList edges = graph::generate(options);
  for (int ranks : {1, 2, 3, 4}) check(edges, ranks, std::nullopt, mb::Routing::no_route, 4096);
}

TEST(MailboxDegree, MatchesTheReferenceThroughEverySchemeAndLayout) {
  graph::GeneratorOptions options;
  options.kind = graph::Generator::uniform;
  options.scale = 9;
  const graph::EdgeList edges = graph::generate(options);
  for (mb::Routing routing : {mb::Routing::no_route, mb::Routing::node_local, mb::Routing::node_remote, mb::Routing::nlnr}) {
    check(edges, 8, mb::Layout{4, 2}, routing, 2048);
    check(edges, 8, mb::Layout{2, 4}, routing, 2048);
    check(edges, 7, mb::Layout{2, 4}, routing, 333);
    check(edges, 4, mb::Layout{2, 2}, routing, 1);
  }
}

}  // namespace mailbox_degree_test
