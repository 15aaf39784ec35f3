// Writing a graph in one format and reading it back gives the same edges and weights.
#include <gtest/gtest.h>

#include "courier/graph/io.hpp"
#include "graph/io/io_test_util.hpp"

namespace round_trip_test {

using namespace courier::graph;
using namespace courier::graph::test;

namespace {

struct Case {
  const char* extension;
  WeightType weights;
};

class RoundTrip : public ::testing::TestWithParam<Case> {};

ReadOptions read_options_for(const Case& c) {
  ReadOptions options;
  options.binary_weight = c.weights;  // ignored by the formats that say it themselves
  return options;
}

TEST_P(RoundTrip, EdgeListComesBackEqual) {
  const Case c = GetParam();
  const auto dir = test_dir();
  const EdgeList original = random_graph(97, 600, c.weights);
  const std::string path = (dir / (std::string("g.") + c.extension)).string();
  write_edge_list(path, original);
  const EdgeList back = read_edge_list(path, read_options_for(c));
  EXPECT_EQ(back.num_vertices, original.num_vertices);
  EXPECT_EQ(back.weight_type(), original.weight_type());
  EXPECT_EQ(multiset(back), multiset(original));
  EXPECT_EQ(files_in(dir), std::vector<std::string>{std::string("g.") + c.extension}) << "no temporary left";
}

TEST_P(RoundTrip, CsrComesBackEqual) {
  const Case c = GetParam();
  const auto dir = test_dir();
  const Csr original = build_csr(random_graph(50, 300, c.weights, 3));
  const std::string path = (dir / (std::string("g.") + c.extension)).string();
  write_csr(path, original);
  const Csr back = read_csr(path, read_options_for(c));
  EXPECT_EQ(multiset(to_edge_list(back)), multiset(to_edge_list(original)));
  EXPECT_EQ(back.num_vertices(), original.num_vertices());
}

INSTANTIATE_TEST_SUITE_P(AllFormats, RoundTrip,
                         ::testing::Values(Case{"el", WeightType::none}, Case{"wel", WeightType::u32},
                                           Case{"txt", WeightType::f32}, Case{"mtx", WeightType::none},
                                           Case{"mtx", WeightType::u32}, Case{"mtx", WeightType::f32},
                                           Case{"bel", WeightType::none}, Case{"bel", WeightType::u32},
                                           Case{"bin", WeightType::f32}, Case{"gr", WeightType::u32},
                                           Case{"csr", WeightType::none}, Case{"csr", WeightType::u32},
                                           Case{"csr", WeightType::f32}),
                         [](const auto& info) {
                           return std::string(info.param.extension) + "_" + to_string(info.param.weights);
                         });

TEST(RoundTrip, MetisOfSymmetricGraphs) {
  const auto dir = test_dir();
  for (WeightType weights : {WeightType::none, WeightType::u32}) {
    const EdgeList original = symmetric_graph(40, 200, weights);
    const std::string path = (dir / "g.graph").string();
    write_edge_list(path, original);
    const EdgeList back = read_edge_list(path);
    EXPECT_EQ(back.num_vertices, original.num_vertices);
    EXPECT_EQ(back.weight_type(), weights);
    EXPECT_EQ(multiset(back), multiset(original));
  }
}

TEST(RoundTrip, DimacsGivesUnweightedGraphsWeightOne) {
  const auto dir = test_dir();
  EdgeList original = random_graph(30, 100, WeightType::none);
  write_edge_list((dir / "g.gr").string(), original);
  const EdgeList back = read_edge_list((dir / "g.gr").string());
  original.weights = std::vector<std::uint32_t>(original.edges.size(), 1);
  EXPECT_EQ(multiset(back), multiset(original));
}

TEST(RoundTrip, TextWithBaseOne) {
  const auto dir = test_dir();
  const EdgeList original = random_graph(20, 50, WeightType::none);
  const std::string path = (dir / "g.el").string();
  write_edge_list(path, original, {.base = 1});
  // Courier's counts comment records the base, so reading with the wrong one is caught.
  try {
    (void)read_edge_list(path, ReadOptions{});
    ADD_FAILURE() << "read a 1-based file as 0-based";
  } catch (const courier::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("g.el:1: the file numbers vertices from 1: read it with --base 1"),
              std::string::npos)
        << e.what();
  }
  ReadOptions one_based;
  one_based.base = 1;
  EXPECT_EQ(multiset(read_edge_list(path, one_based)), multiset(original));
}

TEST(RoundTrip, BinaryWithFourByteIdsAndGuessedWidth) {
  const auto dir = test_dir();
  for (int bytes : {4, 8}) {
    const EdgeList original = random_graph(1000, 500, WeightType::u32, bytes);
    const std::string path = (dir / "g.bel").string();
    write_edge_list(path, original, {.binary_id_bytes = bytes});
    EXPECT_EQ(std::filesystem::file_size(path), original.edges.size() * (2 * bytes + 4));
    ReadOptions guessed;
    guessed.binary_weight = WeightType::u32;
    EXPECT_EQ(multiset(read_edge_list(path, guessed)), multiset(original)) << bytes << "-byte ids";
  }
}

TEST(RoundTrip, ThroughEveryFormatInTurn) {
  const auto dir = test_dir();
  const EdgeList original = symmetric_graph(64, 300, WeightType::u32);
  EdgeList current = original;
  ReadOptions options;
  options.binary_weight = WeightType::u32;
  for (const char* name : {"a.wel", "b.mtx", "c.bel", "d.gr", "e.graph", "f.csr", "g.txt"}) {
    const std::string path = (dir / name).string();
    write_edge_list(path, current);
    current = read_edge_list(path, options);
    EXPECT_EQ(multiset(current), multiset(original)) << "after " << name;
    EXPECT_EQ(current.num_vertices, original.num_vertices) << "after " << name;
  }
}

TEST(RoundTrip, SymmetrizeAddsReverseEdgesInEveryFormat) {
  const auto dir = test_dir();
  EdgeList list;
  list.num_vertices = 3;
  list.edges = {{0, 1}, {2, 2}, {1, 2}};
  list.weights = std::vector<std::uint32_t>{5, 6, 7};
  ReadOptions options;
  options.symmetrize = true;
  options.binary_weight = WeightType::u32;
  const std::vector<WeightedEdge> expected = {{0, 1, 5}, {1, 0, 5}, {1, 2, 7}, {2, 1, 7}, {2, 2, 6}};
  for (const char* name : {"s.wel", "s.mtx", "s.bel", "s.gr", "s.csr"}) {
    const std::string path = (dir / name).string();
    write_edge_list(path, list);
    EXPECT_EQ(multiset(read_edge_list(path, options)), expected) << name;
    EXPECT_EQ(multiset(to_edge_list(read_csr(path, options))), expected) << name;
  }
}

TEST(RoundTrip, MissingFileInEveryFormat) {
  const auto dir = test_dir();
  for (const char* name : {"m.el", "m.mtx", "m.bel", "m.gr", "m.graph", "m.csr"}) {
    const std::string path = (dir / name).string();
    expect_input_error([&] { read_edge_list(path); }, {path + ": cannot open: No such file or directory"});
    expect_input_error([&] { read_csr(path); }, {path + ": cannot open: No such file or directory"});
  }
}

TEST(RoundTrip, EmptyGraphs) {
  const auto dir = test_dir();
  EdgeList empty;
  for (const char* name : {"e.el", "e.mtx", "e.bel", "e.gr", "e.graph", "e.csr"}) {
    const std::string path = (dir / name).string();
    write_edge_list(path, empty);
    const EdgeList back = read_edge_list(path);
    EXPECT_EQ(back.num_vertices, 0u) << name;
    EXPECT_TRUE(back.edges.empty()) << name;
  }
}

}  // namespace

TEST(RoundTrip, TextKeepsTrailingIsolatedVerticesAndCatchesTruncation) {
  const auto dir = test_dir();
  EdgeList original;
  original.num_vertices = 10;  // 3..9 appear in no edge
  original.edges = {{0, 1}, {1, 2}, {2, 0}};
  const std::string path = (dir / "g.el").string();
  write_edge_list(path, original);
  EXPECT_EQ(read_edge_list(path).num_vertices, 10u);

  // Drop the last line: the declared edge count no longer matches.
  std::string text;
  {
    std::ifstream in(path);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  text.erase(text.rfind('\n', text.size() - 2) + 1);
  {
    std::ofstream out(path, std::ios::trunc);
    out << text;
  }
  try {
    (void)read_edge_list(path);
    ADD_FAILURE() << "a truncated file was read";
  } catch (const courier::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("g.el:1: the header declares 3 edges but the file has 2"), std::string::npos)
        << e.what();
  }
}

}  // namespace round_trip_test
