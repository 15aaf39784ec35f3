#pragma once
// The whole algorithm set on one partitioned graph, checked against the sequential references.
#include <gtest/gtest.h>

#include "algo/algo_graphs.hpp"
#include "courier/algo/bfs.hpp"
#include "courier/algo/cc.hpp"
#include "courier/algo/kcore.hpp"
#include "courier/algo/pagerank.hpp"
#include "courier/algo/sssp.hpp"
#include "courier/algo/tc.hpp"
#include "courier/graph/csr.hpp"
#include "courier/graph/reference.hpp"
#include "courier/graph/transform.hpp"
#include "courier/vertex/gather.hpp"
#include "support/ranks.hpp"

namespace courier::test_support {

// Every algorithm on `ranks` ranks of `threads` threads under `policy`, through `channel`, equals
// the reference.
inline void expect_every_algorithm_equals_reference(dist::Policy policy, int ranks, Channel channel,
                                                    unsigned threads = 2) {
  const graph::EdgeList directed = generated(graph::Generator::kronecker, 8, true);
  const graph::Csr csr = graph::build_csr(directed);
  const graph::Csr undirected = graph::simple_undirected(csr);
  const graph::EdgeList undirected_edges = graph::to_edge_list(undirected);
  const auto bfs = graph::reference::bfs(csr, 1).level;
  const auto sssp = graph::reference::sssp(csr, 1).dist_int;
  const auto cc = graph::reference::connected_components(csr);
  const auto pr = graph::reference::pagerank(csr);
  const auto core = graph::reference::kcore(undirected);
  const auto tri = graph::reference::triangles(undirected);
  SCOPED_TRACE(::testing::Message() << dist::to_string(policy) << " on " << ranks << " ranks x " << threads << " threads");
  const auto parts = dist::partition_in_memory(directed, policy, ranks, true);
  const auto undirected_parts = dist::partition_in_memory(undirected_edges, policy, ranks, false);
  std::vector<std::uint64_t> got_bfs, got_sssp, got_tri;
  std::vector<graph::vertex_t> got_lp, got_uf;
  std::vector<double> got_pr;
  on_every_rank(
      parts, threads,
      [&](vertex::Engine& e) {
        auto b = vertex::gather_masters<std::uint64_t>(e, algo::bfs(e, {.source = 1}));
        auto s = vertex::gather_masters<std::uint64_t>(e, algo::sssp(e, {.source = 1, .delta = 16}));
        auto lp = vertex::gather_masters<graph::vertex_t>(e, algo::cc_label_propagation(e));
        auto uf = vertex::gather_masters<graph::vertex_t>(e, algo::cc_union_find<graph::vertex_t>(e));
        auto p = vertex::gather_masters<double>(e, algo::pagerank(e).rank);
        if (e.rank() == 0) {
          got_bfs = std::move(b), got_sssp = std::move(s), got_lp = std::move(lp), got_uf = std::move(uf);
          got_pr = std::move(p);
        }
      },
      channel);
  std::vector<std::uint32_t> got_core;
  on_every_rank(
      undirected_parts, threads,
      [&](vertex::Engine& e) {
        auto k = vertex::gather_masters<std::uint32_t>(e, algo::kcore(e));
        auto t = vertex::gather_masters<std::uint64_t>(e, algo::tc(e).per_vertex);
        if (e.rank() == 0) got_core = std::move(k), got_tri = std::move(t);
      },
      channel);
  EXPECT_EQ(got_bfs, bfs);
  EXPECT_EQ(got_sssp, sssp);
  EXPECT_EQ(got_lp, cc);
  EXPECT_EQ(got_uf, cc);
  EXPECT_EQ(got_core, core);
  EXPECT_EQ(got_tri, tri.per_vertex);
  ASSERT_EQ(got_pr.size(), pr.rank.size());
  double l1 = 0;
  for (std::size_t v = 0; v < pr.rank.size(); ++v) l1 += std::abs(got_pr[v] - pr.rank[v]);
  EXPECT_LT(l1, 1e-6);
}

}  // namespace courier::test_support
