#include <gtest/gtest.h>

#include <algorithm>

#include "courier/core/error.hpp"
#include "courier/graph/reference.hpp"
#include "graph/graph_builders.hpp"

namespace reference_bfs_test {

using namespace courier::graph;
using namespace courier::graph::testing;
using courier::graph::reference::bfs;
using courier::graph::reference::kUnreached;

namespace {
constexpr std::uint64_t U = kUnreached;
constexpr vertex_t N = kNoVertex;
}  // namespace

TEST(ReferenceBfs, DirectedPath) {
  const Csr path = csr(4, {{0, 1}, {1, 2}, {2, 3}});
  auto r = bfs(path, 0);
  EXPECT_EQ(r.level, (std::vector<std::uint64_t>{0, 1, 2, 3}));
  EXPECT_EQ(r.parent, (std::vector<vertex_t>{0, 0, 1, 2}));
  r = bfs(path, 2);  // nothing leads back
  EXPECT_EQ(r.level, (std::vector<std::uint64_t>{U, U, 0, 1}));
  EXPECT_EQ(r.parent, (std::vector<vertex_t>{N, N, 2, 2}));
}

TEST(ReferenceBfs, StarFromALeaf) {
  const Csr star = undirected_csr(5, {{0, 1}, {0, 2}, {0, 3}, {0, 4}});
  const auto r = bfs(star, 3);
  EXPECT_EQ(r.level, (std::vector<std::uint64_t>{1, 2, 2, 0, 2}));
  EXPECT_EQ(r.parent, (std::vector<vertex_t>{3, 0, 0, 3, 0}));
}

TEST(ReferenceBfs, UndirectedCycleMeetsItselfHalfWay) {
  const Csr cycle = undirected_csr(6, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}});
  const auto r = bfs(cycle, 0);
  EXPECT_EQ(r.level, (std::vector<std::uint64_t>{0, 1, 2, 3, 2, 1}));
  EXPECT_EQ(r.parent, (std::vector<vertex_t>{0, 0, 1, 2, 5, 0}));  // 3 is found from 2 first
}

TEST(ReferenceBfs, TwoComponentsAndIsolatedVertices) {
  const Csr g = undirected_csr(7, {{0, 1}, {1, 2}, {4, 5}});
  const auto r = bfs(g, 5);
  EXPECT_EQ(r.level, (std::vector<std::uint64_t>{U, U, U, U, 1, 0, U}));
  EXPECT_EQ(r.parent, (std::vector<vertex_t>{N, N, N, N, 5, 5, N}));
  const auto alone = bfs(g, 6);
  EXPECT_EQ(alone.level[6], 0u);
  EXPECT_EQ(std::count(alone.level.begin(), alone.level.end(), U), 6);
}

TEST(ReferenceBfs, DirectionMatters) {
  const Csr g = csr(3, {{0, 1}, {2, 1}});
  EXPECT_EQ(bfs(g, 0).level, (std::vector<std::uint64_t>{0, 1, U}));
  EXPECT_EQ(bfs(g, 1).level, (std::vector<std::uint64_t>{U, 0, U}));
}

TEST(ReferenceBfs, SourceMustBeAVertex) {
  EXPECT_THROW(bfs(Csr(), 0), courier::InputError);
  EXPECT_THROW(bfs(csr(3, {{0, 1}}), 3), courier::InputError);
}

}  // namespace reference_bfs_test
