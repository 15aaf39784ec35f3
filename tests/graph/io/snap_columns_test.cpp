// Text edge lists with more than two columns: SNAP's temporal files ("src dst timestamp"), rated
// networks ("src dst rating time"). By default a third column is the weight (a temporal file is
// weighted by its timestamps) and a fourth is an error; ReadOptions::weight_column picks another
// column or none, whole and in parts.
#include <gtest/gtest.h>

#include "courier/graph/io.hpp"
#include "io_test_util.hpp"
#include "parts_test_util.hpp"

namespace snap_columns_test {

using namespace courier::graph;
using namespace courier::graph::test;

namespace {

const char* kTemporal =
    "# Directed graph (each unordered pair of nodes is saved once): CollegeMsg.txt\n"
    "% SRC DST UNIXTS\n"
    "0 1 1082008561\n"
    "2 3 1082155839\n"
    "\n"
    "0 1 1082414391\n";

const char* kRated = "1 2 4 1289241911.72836\n2 3 -1 1289241941.53378\n# x\n3 1 10 1289243140.39049\n";

ReadOptions column(int k) {
  ReadOptions options;
  options.weight_column = k;
  return options;
}

TEST(SnapColumns, TemporalFilesAreWeightedByTimeOrReadUnweighted) {
  const auto dir = test_dir();
  const std::string path = write_file(dir / "CollegeMsg.txt", kTemporal);
  const EdgeList timed = read_edge_list(path);
  EXPECT_EQ(timed.edges, (std::vector<Edge>{{0, 1}, {2, 3}, {0, 1}}));
  EXPECT_EQ(std::get<std::vector<std::uint32_t>>(timed.weights),
            (std::vector<std::uint32_t>{1082008561u, 1082155839u, 1082414391u}));
  const EdgeList plain = read_edge_list(path, column(0));
  EXPECT_EQ(plain.edges, timed.edges);
  EXPECT_FALSE(plain.has_weights());
  EXPECT_EQ(read_edge_list(path, column(3)).weights, timed.weights);
}

TEST(SnapColumns, AColumnAmongManyIsTheWeight) {
  const auto dir = test_dir();
  const std::string path = write_file(dir / "rated.txt", kRated);
  expect_input_error([&] { (void)read_edge_list(path); }, {"rated.txt:1:", "found more columns", "--weight-column"});
  const EdgeList by_time = read_edge_list(path, column(4));
  EXPECT_EQ(by_time.edges, (std::vector<Edge>{{1, 2}, {2, 3}, {3, 1}}));
  EXPECT_FLOAT_EQ(std::get<std::vector<float>>(by_time.weights)[2], 1289243140.39049f);
  EXPECT_FALSE(read_edge_list(path, column(0)).has_weights());
  // The ratings are signed: a negative integer weight is refused, with the line.
  expect_input_error([&] { (void)read_edge_list(path, column(3)); }, {"rated.txt:2:", "weight '-1' is negative"});
  expect_input_error([&] { (void)read_edge_list(path, column(5)); },
                     {"rated.txt:1:", "expected the weight in column 5 (--weight-column), found 4 columns"});
  expect_input_error([&] { (void)read_edge_list(path, column(2)); }, {"weight column 2 is not supported"});
}

TEST(SnapColumns, PartsAgree) {
  const auto dir = test_dir();
  std::string many;
  for (int i = 0; i < 200; ++i)
    many += std::to_string(i % 17) + " " + std::to_string(i % 13) + " " + std::to_string(1000 + i) + " " +
            std::to_string(i) + ".5\n";
  const std::string path = write_file(dir / "many.txt", many);
  for (int k : {0, 3, 4}) {
    LoadOptions options;
    options.read.weight_column = k;
    expect_parts_join_to_whole(path, options, 5);
  }
}

}  // namespace

}  // namespace snap_columns_test
