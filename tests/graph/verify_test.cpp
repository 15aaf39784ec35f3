// The independent verifiers accept right answers and reject each kind of wrong one.
#include "courier/graph/verify.hpp"

#include <gtest/gtest.h>

namespace verify_test {

using namespace courier::graph;
namespace ref = courier::graph::reference;

namespace {

Csr graph_of(vertex_t n, std::vector<Edge> edges, std::vector<std::uint32_t> weights = {}) {
  EdgeList list;
  list.num_vertices = n;
  list.edges = std::move(edges);
  if (!weights.empty()) list.weights = std::move(weights);
  return build_csr(list);
}

constexpr std::uint64_t inf = ref::kUnreached;

}  // namespace

TEST(VerifyBfs, AcceptsTrueLevelsAndRejectsWrongOnes) {
  // 0 -> 1 -> 2 -> 3, 0 -> 2; 4 unreachable.
  const Csr g = graph_of(5, {{0, 1}, {1, 2}, {2, 3}, {0, 2}});
  EXPECT_EQ(verify::bfs_levels(g, 0, std::vector<std::uint64_t>{0, 1, 1, 2, inf}), "");
  EXPECT_NE(verify::bfs_levels(g, 0, std::vector<std::uint64_t>{0, 1, 2, 3, inf}), "");    // too far
  EXPECT_NE(verify::bfs_levels(g, 0, std::vector<std::uint64_t>{0, 1, 1, 1, inf}), "");    // too near
  EXPECT_NE(verify::bfs_levels(g, 0, std::vector<std::uint64_t>{0, 1, 1, inf, inf}), "");  // missed
  EXPECT_NE(verify::bfs_levels(g, 0, std::vector<std::uint64_t>{0, 1, 1, 2, 3}), "");      // invented
  EXPECT_NE(verify::bfs_levels(g, 0, std::vector<std::uint64_t>{1, 2, 2, 3, inf}), "");    // source
  EXPECT_NE(verify::bfs_levels(g, 0, std::vector<std::uint64_t>{0, 1}), "");               // size
}

TEST(VerifySssp, ChecksEveryEdgeAndTightness) {
  // 0 -> 1 (10), 0 -> 2 (1), 2 -> 1 (2): the two-hop path is shorter.
  const Csr g = graph_of(3, {{0, 1}, {0, 2}, {2, 1}}, {10, 1, 2});
  ref::SsspResult right;
  right.dist_int = {0, 3, 1};
  EXPECT_EQ(verify::sssp(g, 0, right), "");
  ref::SsspResult direct = right;
  direct.dist_int = {0, 10, 1};
  EXPECT_NE(verify::sssp(g, 0, direct), "");
  ref::SsspResult too_short = right;
  too_short.dist_int = {0, 2, 1};
  EXPECT_NE(verify::sssp(g, 0, too_short), "");
}

TEST(VerifyComponents, RejectsMergedSplitAndNonMinimalLabels) {
  // {0, 1} and {2, 3}, directed edges taken as weak connections.
  const Csr g = graph_of(4, {{1, 0}, {2, 3}});
  EXPECT_EQ(verify::components(g, std::vector<vertex_t>{0, 0, 2, 2}), "");
  EXPECT_NE(verify::components(g, std::vector<vertex_t>{0, 1, 2, 2}), "");  // split
  EXPECT_NE(verify::components(g, std::vector<vertex_t>{0, 0, 0, 0}), "");  // merged
  EXPECT_NE(verify::components(g, std::vector<vertex_t>{1, 1, 2, 2}), "");  // not the smallest
}

TEST(VerifyPagerank, AcceptsTheFixedPointOnly) {
  const Csr cycle = graph_of(3, {{0, 1}, {1, 2}, {2, 0}});
  const std::vector<double> uniform(3, 1.0 / 3);
  EXPECT_EQ(verify::pagerank(cycle, uniform, 0.85, 1e-9), "");
  EXPECT_NE(verify::pagerank(cycle, std::vector<double>{0.5, 0.25, 0.25}, 0.85, 1e-9), "");
  EXPECT_NE(verify::pagerank(cycle, std::vector<double>{0.5, 0.5, 0.5}, 0.85, 1e-9), "");  // sum
}

TEST(VerifyCompare, EqualAndClose) {
  EXPECT_EQ(verify::equal(std::vector<std::uint64_t>{1, 2}, std::vector<std::uint64_t>{1, 2}, "x"), "");
  EXPECT_NE(verify::equal(std::vector<std::uint64_t>{1, 2}, std::vector<std::uint64_t>{1, 3}, "x").find("x of 1"),
            std::string::npos);
  EXPECT_EQ(verify::close(std::vector<double>{0.5, 0.5}, std::vector<double>{0.5, 0.5 + 1e-9}, 1e-6, "rank"), "");
  EXPECT_NE(verify::close(std::vector<double>{0.5, 0.5}, std::vector<double>{0.4, 0.6}, 1e-6, "rank"), "");
}

}  // namespace verify_test
