// Binary edge lists: id widths (given or guessed), weights, truncation.
#include <gtest/gtest.h>

#include <cstring>

#include "courier/graph/io.hpp"
#include "graph/io/io_test_util.hpp"

namespace binary_format_test {

using namespace courier::graph;
using namespace courier::graph::test;

namespace {

template <class T>
std::string bytes_of(std::initializer_list<T> values) {
  std::string bytes(values.size() * sizeof(T), '\0');
  std::memcpy(bytes.data(), std::data(values), bytes.size());
  return bytes;
}

TEST(BinaryFormat, GuessesFourByteIdsWhenOnlyTheyFit) {
  const auto dir = test_dir();
  // 3 records of 8 bytes = 24 bytes, not a multiple of 16.
  const std::string path = write_file(dir / "g.bel", bytes_of<std::uint32_t>({1, 2, 3, 4, 5, 0}));
  const EdgeList list = read_edge_list(path);
  EXPECT_EQ(list.edges, (std::vector<Edge>{{1, 2}, {3, 4}, {5, 0}}));
  EXPECT_EQ(list.num_vertices, 6u);
}

TEST(BinaryFormat, GuessesWhenBothWidthsFit) {
  const auto dir = test_dir();
  // 32 bytes: as 4-byte ids 4 edges with nonzero odd ids, which as 8-byte ids would need > 32 bits.
  const std::string four = write_file(dir / "four.bel", bytes_of<std::uint32_t>({1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(read_edge_list(four).edges.size(), 4u);
  // 32 bytes: two 8-byte edges whose ids fit in 32 bits.
  const std::string eight = write_file(dir / "eight.bel", bytes_of<std::uint64_t>({1, 2, 3, 4}));
  EXPECT_EQ(read_edge_list(eight).edges, (std::vector<Edge>{{1, 2}, {3, 4}}));
  ReadOptions forced;
  forced.binary_id_bytes = 4;
  EXPECT_EQ(read_edge_list(eight, forced).edges, (std::vector<Edge>{{1, 0}, {2, 0}, {3, 0}, {4, 0}}));
}

TEST(BinaryFormat, ReadsWeightsAfterEachPair) {
  const auto dir = test_dir();
  std::string bytes = bytes_of<std::uint64_t>({7, 9});
  bytes += bytes_of<float>({0.25f});
  ReadOptions options;
  options.binary_weight = WeightType::f32;
  const EdgeList list = read_edge_list(write_file(dir / "w.bin", bytes), options);
  EXPECT_EQ(multiset(list), (std::vector<WeightedEdge>{{7, 9, 0.25}}));
}

TEST(BinaryFormat, ErrorTruncatedFileNamesItsSize) {
  const auto dir = test_dir();
  const std::string path = write_file(dir / "t.bel", bytes_of<std::uint32_t>({1, 2, 3}));
  ReadOptions options;
  options.binary_id_bytes = 4;
  expect_input_error([&] { read_edge_list(path, options); }, {path + ": truncated: size 12 bytes", "8-byte record", "byte 8"});
  expect_input_error([&] { read_edge_list(path); }, {path + ": size 12 bytes", "--binary-id-bytes"});
  options.binary_id_bytes = 5;
  expect_input_error([&] { read_edge_list(path, options); }, {"use 4 or 8"});
}

TEST(BinaryFormat, FourByteWriterRejectsLargeIdsAndLeavesNoFile) {
  const auto dir = test_dir();
  EdgeList list;
  list.num_vertices = (vertex_t{1} << 32) + 1;
  list.edges = {{0, vertex_t{1} << 32}};
  EXPECT_THROW(write_edge_list((dir / "big.bel").string(), list, {.binary_id_bytes = 4}), courier::Error);
  EXPECT_TRUE(files_in(dir).empty());
}

}  // namespace

}  // namespace binary_format_test
