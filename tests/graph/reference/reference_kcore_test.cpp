#include <gtest/gtest.h>

#include "courier/graph/reference.hpp"
#include "graph/graph_builders.hpp"

namespace reference_kcore_test {

using namespace courier::graph;
using namespace courier::graph::testing;
using courier::graph::reference::kcore;
using courier::graph::reference::out_degrees;

TEST(ReferenceKcore, CliqueWithATailAndAnIsolatedVertex) {
  // K4 on 0..3, 4 hangs off 0, 5 hangs off 4, 6 is alone.
  const Csr g = csr(7, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}, {4, 0}, {5, 4}});
  EXPECT_EQ(kcore(g), (std::vector<std::uint32_t>{3, 3, 3, 3, 1, 1, 0}));
}

TEST(ReferenceKcore, PathCycleStar) {
  EXPECT_EQ(kcore(csr(4, {{0, 1}, {1, 2}, {2, 3}})), (std::vector<std::uint32_t>{1, 1, 1, 1}));
  EXPECT_EQ(kcore(csr(4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}})), (std::vector<std::uint32_t>{2, 2, 2, 2}));
  EXPECT_EQ(kcore(undirected_csr(5, {{0, 1}, {0, 2}, {0, 3}, {0, 4}})), (std::vector<std::uint32_t>{1, 1, 1, 1, 1}));
  EXPECT_TRUE(kcore(Csr()).empty());
}

TEST(ReferenceKcore, LoopsDuplicatesAndDirectionIgnored) {
  // As a simple undirected graph this is the triangle 0-1-2 with 3 attached to 2: cores 2,2,2,1.
  const Csr g = csr(4, {{0, 1}, {1, 0}, {0, 1}, {2, 1}, {0, 2}, {2, 2}, {3, 2}, {3, 2}, {3, 3}});
  EXPECT_EQ(kcore(g), (std::vector<std::uint32_t>{2, 2, 2, 1}));
}

TEST(ReferenceDegrees, OutDegrees) {
  EXPECT_EQ(out_degrees(csr(4, {{0, 1}, {0, 2}, {2, 2}, {0, 1}})), (std::vector<std::uint64_t>{3, 0, 1, 0}));
  EXPECT_TRUE(out_degrees(Csr()).empty());
}

}  // namespace reference_kcore_test
