#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "courier/core/error.hpp"
#include "courier/graph/reference.hpp"
#include "graph/graph_builders.hpp"

namespace reference_sssp_test {

using namespace courier::graph;
using namespace courier::graph::testing;
using courier::graph::reference::kUnreached;
using courier::graph::reference::sssp;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}

TEST(ReferenceSssp, MoreHopsCanBeShorter) {
  // 0 -> 1 directly costs 10; 0 -> 2 -> 3 -> 1 costs 3. Vertex 4 is unreachable.
  const Csr g = weighted_csr<std::uint32_t>(5, {{0, 1}, {0, 2}, {2, 3}, {3, 1}, {4, 0}}, {10, 1, 1, 1, 1});
  const auto r = sssp(g, 0);
  EXPECT_EQ(r.weight_type, WeightType::u32);
  EXPECT_EQ(r.dist_int, (std::vector<std::uint64_t>{0, 3, 1, 2, kUnreached}));
  EXPECT_TRUE(r.dist_real.empty());
}

TEST(ReferenceSssp, IntegerDistancesAreExactBeyond32Bits) {
  const std::uint32_t big = 4'000'000'000u;
  const Csr path = weighted_csr<std::uint32_t>(4, {{0, 1}, {1, 2}, {2, 3}}, {big, big, big + 1});
  EXPECT_EQ(sssp(path, 0).dist_int, (std::vector<std::uint64_t>{0, 4'000'000'000ull, 8'000'000'000ull, 12'000'000'001ull}));
}

TEST(ReferenceSssp, FloatWeightsGiveDoubleDistances) {
  const Csr g = weighted_csr<float>(4, {{0, 1}, {1, 2}, {0, 2}, {2, 0}}, {0.5f, 0.25f, 1.0f, 0.125f});
  const auto r = sssp(g, 0);
  EXPECT_EQ(r.weight_type, WeightType::f32);
  EXPECT_TRUE(r.dist_int.empty());
  EXPECT_EQ(r.dist_real, (std::vector<double>{0, 0.5, 0.75, kInf}));
  EXPECT_EQ(sssp(g, 2).dist_real, (std::vector<double>{0.125, 0.625, 0, kInf}));
}

TEST(ReferenceSssp, DirectionMattersAndParallelEdgesTakeTheLightest) {
  const Csr g = weighted_csr<std::uint32_t>(3, {{1, 0}, {1, 2}, {1, 2}, {2, 0}}, {1, 9, 4, 2});
  EXPECT_EQ(sssp(g, 0).dist_int, (std::vector<std::uint64_t>{0, kUnreached, kUnreached}));
  EXPECT_EQ(sssp(g, 1).dist_int, (std::vector<std::uint64_t>{1, 0, 4}));
}

TEST(ReferenceSssp, NeedsWeights) {
  try {
    sssp(csr(2, {{0, 1}}), 0);
    FAIL() << "an unweighted graph was accepted";
  } catch (const courier::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("sssp needs edge weights"), std::string::npos) << e.what();
  }
  EXPECT_THROW(sssp(Csr(), 0), courier::InputError);
}

TEST(ReferenceSssp, RejectsNegativeWeightsAndBadSources) {
  EXPECT_THROW(sssp(weighted_csr<float>(2, {{0, 1}}, {-1.0f}), 0), courier::InputError);
  EXPECT_THROW(sssp(weighted_csr<float>(2, {{0, 1}}, {std::nanf("")}), 0), courier::InputError);
  EXPECT_THROW(sssp(weighted_csr<std::uint32_t>(2, {{0, 1}}, {1}), 2), courier::InputError);
}

}  // namespace reference_sssp_test
