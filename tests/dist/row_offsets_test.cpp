#include "courier/dist/row_offsets.hpp"

#include <gtest/gtest.h>

#include <type_traits>

namespace courier::dist {
namespace row_offsets_test {

using graph::edge_t;

TEST(RowOffsets, KeepsThirtyTwoBitsWhileTheEdgesFit) {
  const RowOffsets narrowed(std::vector<edge_t>{0, 3, 3, 7});
  EXPECT_TRUE(narrowed.narrow());
  ASSERT_EQ(narrowed.size(), 4u);
  EXPECT_EQ(narrowed[1], 3u);
  EXPECT_EQ(narrowed.back(), 7u);
  EXPECT_EQ(narrowed.bytes(), 4 * sizeof(std::uint32_t));
  EXPECT_EQ(narrowed, RowOffsets(std::vector<std::uint32_t>{0, 3, 3, 7}));
}

TEST(RowOffsets, KeepsSixtyFourBitsBeyondThem) {
  const edge_t big = edge_t{5} << 32;
  const RowOffsets wide(std::vector<edge_t>{0, 2, big});
  EXPECT_FALSE(wide.narrow());
  EXPECT_EQ(wide[2], big);
  EXPECT_EQ(wide.back(), big);
  EXPECT_EQ(wide.widened(), (std::vector<edge_t>{0, 2, big}));
  EXPECT_FALSE(wide == RowOffsets(std::vector<edge_t>{0, 2, 3}));
}

TEST(RowOffsets, VisitSeesTheEntriesAsStored) {
  const RowOffsets narrow(std::vector<edge_t>{0, 1, 4});
  const RowOffsets wide(std::vector<edge_t>{0, 1, edge_t{1} << 33});
  EXPECT_EQ(narrow.visit([](auto e) { return sizeof(e[0]); }), sizeof(std::uint32_t));
  EXPECT_EQ(wide.visit([](auto e) { return sizeof(e[0]); }), sizeof(edge_t));
  EXPECT_EQ(narrow.visit([](auto e) { return e.size(); }), 3u);
}

TEST(RowOffsets, BuildersAreToldTheWidthByTheirEdges) {
  const auto width = [](edge_t edges) { return RowOffsets::in_width_for(edges, []<class O>(O) { return sizeof(O); }); };
  EXPECT_EQ(width(0), 4u);
  EXPECT_EQ(width(std::numeric_limits<std::uint32_t>::max()), 4u);
  EXPECT_EQ(width(edge_t{1} << 32), 8u);
  const edge_t limit = RowOffsets::narrow_limit.exchange(10);  // as tests of the builders lower it
  EXPECT_EQ(width(10), 4u);
  EXPECT_EQ(width(11), 8u);
  EXPECT_FALSE(RowOffsets(std::vector<edge_t>{0, 11}).narrow());
  RowOffsets::narrow_limit = limit;
}

TEST(RowOffsets, EmptyHasNoRows) {
  const RowOffsets none;
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.size(), 0u);
  EXPECT_EQ(none, RowOffsets(std::vector<std::uint32_t>{}));
}

}  // namespace row_offsets_test
}  // namespace courier::dist
