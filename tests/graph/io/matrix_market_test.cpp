// Matrix Market coordinate files: fields, symmetry, and every malformed-input error.
#include <gtest/gtest.h>

#include "courier/graph/io.hpp"
#include "graph/io/io_test_util.hpp"

namespace matrix_market_test {

using namespace courier::graph;
using namespace courier::graph::test;

namespace {

TEST(MatrixMarket, SymmetricEntriesGiveBothDirectionsAndDiagonalOnce) {
  const auto dir = test_dir();
  const std::string path = write_file(dir / "s.mtx",
                                      "%%MatrixMarket matrix coordinate integer symmetric\n% c\n3 3 3\n2 1 5\n3 3 6\n"
                                      "% late comment\n3 2 7\n");
  const EdgeList list = read_edge_list(path);
  EXPECT_EQ(list.num_vertices, 3u);
  EXPECT_EQ(multiset(list), (std::vector<WeightedEdge>{{0, 1, 5}, {1, 0, 5}, {1, 2, 7}, {2, 1, 7}, {2, 2, 6}}));
}

TEST(MatrixMarket, RealAndPatternFieldsAndNonSquareSizes) {
  const auto dir = test_dir();
  const EdgeList real = read_edge_list(write_file(dir / "r.mtx", "%%MatrixMarket matrix coordinate real general\n2 5 2\n1 5 0.5\n2 1 3\n"));
  EXPECT_EQ(real.num_vertices, 5u);
  EXPECT_EQ(std::get<std::vector<float>>(real.weights), (std::vector<float>{0.5f, 3.0f}));
  const EdgeList pattern = read_edge_list(write_file(dir / "p.mtx", "%%MATRIXMARKET Matrix Coordinate Pattern General\r\n4 2 1\r\n4 2\r\n"));
  EXPECT_EQ(pattern.num_vertices, 4u);
  EXPECT_EQ(pattern.edges, (std::vector<Edge>{{3, 1}}));
  EXPECT_EQ(pattern.weight_type(), WeightType::none);
}

TEST(MatrixMarket, ErrorUnsupportedHeaders) {
  const auto dir = test_dir();
  for (const char* header : {"%%MatrixMarket matrix array real general", "%%MatrixMarket matrix coordinate complex general",
                             "%%MatrixMarket matrix coordinate real hermitian",
                             "%%MatrixMarket matrix coordinate real skew-symmetric"}) {
    const std::string path = write_file(dir / "h.mtx", std::string(header) + "\n1 1 0\n");
    expect_input_error([&] { read_edge_list(path); }, {path + ":1:", "unsupported", "pattern|integer|real general|symmetric"});
  }
  const std::string none = write_file(dir / "none.mtx", "3 3 0\n");
  expect_input_error([&] { read_edge_list(none); }, {none + ":1:", "missing the '%%MatrixMarket' header"});
}

TEST(MatrixMarket, ErrorIdBeyondDeclaredSize) {
  const auto dir = test_dir();
  const std::string path = write_file(dir / "big.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 4\n");
  expect_input_error([&] { read_edge_list(path); }, {path + ":4:", "column 4 is outside 1..3"});
  const std::string zero = write_file(dir / "zero.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n0 2\n");
  expect_input_error([&] { read_edge_list(zero); }, {zero + ":3:", "row 0 is outside 1..3"});
}

TEST(MatrixMarket, ErrorFewerOrMoreEntriesThanDeclared) {
  const auto dir = test_dir();
  const std::string fewer = write_file(dir / "fewer.mtx", "%%MatrixMarket matrix coordinate pattern general\n%\n3 3 3\n1 2\n2 3\n");
  expect_input_error([&] { read_edge_list(fewer); }, {fewer + ":3:", "declares 3 entries but the file has 2"});
  const std::string more = write_file(dir / "more.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n2 3\n");
  expect_input_error([&] { read_edge_list(more); }, {more + ":4:", "more entries than the 1 declared on line 2"});
}

TEST(MatrixMarket, ErrorMissingOrBadValues) {
  const auto dir = test_dir();
  const std::string missing = write_file(dir / "m.mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 4\n2 3\n");
  expect_input_error([&] { read_edge_list(missing); }, {missing + ":4:", "missing value"});
  const std::string negative = write_file(dir / "n.mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 -4\n");
  expect_input_error([&] { read_edge_list(negative); }, {negative + ":3:", "'-4' is negative"});
  const std::string text = write_file(dir / "t.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 abc\n");
  expect_input_error([&] { read_edge_list(text); }, {text + ":3:", "weight 'abc' is not a number"});
  const std::string size = write_file(dir / "s.mtx", "%%MatrixMarket matrix coordinate real general\n3 x 1\n");
  expect_input_error([&] { read_edge_list(size); }, {size + ":2:", "column count 'x' is not a number"});
}

TEST(MatrixMarket, WriterDeclaresTheField) {
  const auto dir = test_dir();
  EdgeList list;
  list.num_vertices = 2;
  list.edges = {{0, 1}};
  list.weights = std::vector<float>{2.5f};
  const std::string path = (dir / "w.mtx").string();
  write_edge_list(path, list);
  std::ifstream in(path);
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first, "%%MatrixMarket matrix coordinate real general");
}

}  // namespace

}  // namespace matrix_market_test
