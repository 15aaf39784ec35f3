// DIMACS .gr files: the problem line, arcs, and every malformed-input error.
#include <gtest/gtest.h>

#include "courier/graph/io.hpp"
#include "graph/io/io_test_util.hpp"

namespace dimacs_test {

using namespace courier::graph;
using namespace courier::graph::test;

namespace {

TEST(Dimacs, ReadsArcsWithWeights) {
  const auto dir = test_dir();
  const std::string path = write_file(dir / "g.gr", "c road\np sp 4 3\nc arcs\na 1 2 10\na 4 1 0\n\na 2 2 4294967295\n");
  const EdgeList list = read_edge_list(path);
  EXPECT_EQ(list.num_vertices, 4u);
  EXPECT_EQ(multiset(list), (std::vector<WeightedEdge>{{0, 1, 10}, {1, 1, 4294967295.0}, {3, 0, 0}}));
}

TEST(Dimacs, ErrorMissingProblemLine) {
  const auto dir = test_dir();
  const std::string arcs = write_file(dir / "a.gr", "c x\na 1 2 3\n");
  expect_input_error([&] { read_edge_list(arcs); }, {arcs + ":2:", "arc before the problem line"});
  const std::string empty = write_file(dir / "e.gr", "c nothing\n");
  expect_input_error([&] { read_edge_list(empty); }, {empty + ":", "missing the problem line"});
  const std::string twice = write_file(dir / "t.gr", "p sp 2 0\np sp 2 0\n");
  expect_input_error([&] { read_edge_list(twice); }, {twice + ":2:", "second 'p' line"});
}

TEST(Dimacs, ErrorIdsBeyondN) {
  const auto dir = test_dir();
  const std::string path = write_file(dir / "g.gr", "p sp 3 2\na 1 2 3\na 1 4 3\n");
  expect_input_error([&] { read_edge_list(path); }, {path + ":3:", "arc target 4 is outside 1..3"});
}

TEST(Dimacs, ErrorMissingWeight) {
  const auto dir = test_dir();
  const std::string path = write_file(dir / "g.gr", "p sp 3 2\na 1 2 3\na 1 3\n");
  expect_input_error([&] { read_edge_list(path); }, {path + ":3:", "missing weight"});
}

TEST(Dimacs, ErrorArcCountDiffersFromTheProblemLine) {
  const auto dir = test_dir();
  const std::string fewer = write_file(dir / "f.gr", "c\np sp 3 3\na 1 2 3\na 1 3 3\n");
  expect_input_error([&] { read_edge_list(fewer); }, {fewer + ":2:", "declares 3 arcs but the file has 2"});
  const std::string more = write_file(dir / "m.gr", "p sp 3 1\na 1 2 3\na 1 3 3\n");
  expect_input_error([&] { read_edge_list(more); }, {more + ":3:", "more arcs than the 1 declared on line 1"});
}

TEST(Dimacs, ErrorNegativeWeightAndUnknownLines) {
  const auto dir = test_dir();
  const std::string negative = write_file(dir / "n.gr", "p sp 3 1\na 1 2 -3\n");
  expect_input_error([&] { read_edge_list(negative); }, {negative + ":2:", "weight '-3' is negative"});
  const std::string unknown = write_file(dir / "u.gr", "p sp 3 1\ne 1 2\n");
  expect_input_error([&] { read_edge_list(unknown); }, {unknown + ":2:", "unknown line type 'e'"});
  const std::string problem = write_file(dir / "p.gr", "p max 3 1\n");
  expect_input_error([&] { read_edge_list(problem); }, {problem + ":1:", "p sp VERTICES ARCS"});
}

TEST(Dimacs, FloatWeightsCannotBeWrittenAndLeaveNoFile) {
  const auto dir = test_dir();
  EdgeList list;
  list.num_vertices = 2;
  list.edges = {{0, 1}};
  list.weights = std::vector<float>{0.5f};
  expect_input_error([&] { write_edge_list((dir / "f.gr").string(), list); }, {"f.gr", "float weights"});
  EXPECT_TRUE(files_in(dir).empty());
}

}  // namespace

}  // namespace dimacs_test
