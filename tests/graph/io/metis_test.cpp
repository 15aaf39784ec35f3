// METIS .graph files: formats with weights, counts that must agree, and the writer's refusal of
// graphs that METIS cannot express.
#include <gtest/gtest.h>

#include "courier/graph/io.hpp"
#include "graph/io/io_test_util.hpp"

namespace metis_test {

using namespace courier::graph;
using namespace courier::graph::test;

namespace {

TEST(Metis, ReadsAdjacencyLinesIncludingEmptyOnes) {
  const auto dir = test_dir();
  const std::string path = write_file(dir / "g.graph", "% a triangle and an isolated vertex\n4 3\n2 3\n1 3\n% note\n1 2\n\n");
  const EdgeList list = read_edge_list(path);
  EXPECT_EQ(list.num_vertices, 4u);
  EXPECT_EQ(list.edges, (std::vector<Edge>{{0, 1}, {0, 2}, {1, 0}, {1, 2}, {2, 0}, {2, 1}}));
}

TEST(Metis, EdgeWeightsAndSkippedVertexWeights) {
  const auto dir = test_dir();
  const EdgeList weighted = read_edge_list(write_file(dir / "w.graph", "2 1 001\n2 7\n1 7\n"));
  EXPECT_EQ(multiset(weighted), (std::vector<WeightedEdge>{{0, 1, 7}, {1, 0, 7}}));
  // fmt 111 with 2 constraints: size, two vertex weights, then (neighbour, weight) pairs.
  const EdgeList full = read_edge_list(write_file(dir / "f.graph", "2 1 111 2\n5 1 1 2 9\n5 1 1 1 9\n"));
  EXPECT_EQ(multiset(full), (std::vector<WeightedEdge>{{0, 1, 9}, {1, 0, 9}}));
}

TEST(Metis, ErrorHeaderLiesAboutEdges) {
  const auto dir = test_dir();
  const std::string path = write_file(dir / "g.graph", "% c\n3 2\n2 3\n1 3\n1 2\n");
  expect_input_error([&] { read_edge_list(path); }, {path + ":2:", "declares 2 edges but the lines list 6 neighbours"});
}

TEST(Metis, ErrorVertexLineCountDiffers) {
  const auto dir = test_dir();
  const std::string more = write_file(dir / "m.graph", "2 1\n2\n1\n1\n");
  expect_input_error([&] { read_edge_list(more); }, {more + ":4:", "more vertex lines than the 2 declared"});
  const std::string fewer = write_file(dir / "f.graph", "3 1\n2\n1");
  expect_input_error([&] { read_edge_list(fewer); }, {fewer + ":1:", "declares 3 vertices but the file has 2"});
}

TEST(Metis, ErrorBadNeighboursAndWeights) {
  const auto dir = test_dir();
  const std::string beyond = write_file(dir / "b.graph", "2 1\n3\n1\n");
  expect_input_error([&] { read_edge_list(beyond); }, {beyond + ":2:", "neighbour 3 is outside 1..2"});
  const std::string text = write_file(dir / "t.graph", "2 1\nx\n1\n");
  expect_input_error([&] { read_edge_list(text); }, {text + ":2:", "neighbour 'x' is not a number"});
  const std::string missing = write_file(dir / "w.graph", "2 1 1\n2 5\n1\n");
  expect_input_error([&] { read_edge_list(missing); }, {missing + ":3:", "missing weight"});
  const std::string format = write_file(dir / "f.graph", "2 1 2\n2\n1\n");
  expect_input_error([&] { read_edge_list(format); }, {format + ":1:", "format '2'"});
  const std::string header = write_file(dir / "h.graph", "% only comments\n");
  expect_input_error([&] { read_edge_list(header); }, {header + ":", "missing the header"});
}

TEST(Metis, WriterRefusesDirectedGraphsAndSelfLoopsLeavingNoFile) {
  const auto dir = test_dir();
  EdgeList directed;
  directed.num_vertices = 3;
  directed.edges = {{0, 1}, {1, 2}, {2, 1}};
  expect_input_error([&] { write_edge_list((dir / "d.graph").string(), directed); }, {"d.graph", "--symmetrize"});
  EdgeList loop;
  loop.num_vertices = 2;
  loop.edges = {{0, 1}, {1, 0}, {1, 1}};
  expect_input_error([&] { write_edge_list((dir / "l.graph").string(), loop); }, {"l.graph", "self-loops"});
  EdgeList weights_differ;
  weights_differ.num_vertices = 2;
  weights_differ.edges = {{0, 1}, {1, 0}};
  weights_differ.weights = std::vector<std::uint32_t>{1, 2};
  expect_input_error([&] { write_edge_list((dir / "w.graph").string(), weights_differ); }, {"w.graph", "same weight"});
  EXPECT_TRUE(files_in(dir).empty());
}

}  // namespace

}  // namespace metis_test
