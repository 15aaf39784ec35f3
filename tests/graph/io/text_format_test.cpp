// Text edge lists: the quirks real files have, weights, and every malformed-input error.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "courier/core/memory.hpp"
#include "courier/graph/io.hpp"
#include "graph/io/io_test_util.hpp"

namespace text_format_test {

using namespace courier::graph;
using namespace courier::graph::test;

namespace {

TEST(TextFormat, ReadsCommentsTabsCrlfLeadingSpaceAndNoFinalNewline) {
  const auto dir = test_dir();
  const std::string path = write_file(dir / "q.txt", "# header\r\n 3\t4\r\n% another comment\r\n\r\n5  3\r\n  \t\r\n# end\r\n4\t5");
  const EdgeList list = read_edge_list(path);
  EXPECT_EQ(list.num_vertices, 6u);
  EXPECT_EQ(list.edges, (std::vector<Edge>{{3, 4}, {5, 3}, {4, 5}}));
  EXPECT_EQ(list.weight_type(), WeightType::none);
}

TEST(TextFormat, IntegerWeightsAreUint32AndAnyRealMakesThemFloat) {
  const auto dir = test_dir();
  const EdgeList ints = read_edge_list(write_file(dir / "i.wel", "0 1 7\n1 2 4294967295\n"));
  EXPECT_EQ(std::get<std::vector<std::uint32_t>>(ints.weights), (std::vector<std::uint32_t>{7, 4294967295u}));
  const EdgeList reals = read_edge_list(write_file(dir / "r.wel", "0 1 7\n1 2 -2.5\n2 0 1e3\n2 2 -4\n"));
  EXPECT_EQ(std::get<std::vector<float>>(reals.weights), (std::vector<float>{7.0f, -2.5f, 1000.0f, -4.0f}));
}

TEST(TextFormat, BaseOneShiftsIds) {
  const auto dir = test_dir();
  ReadOptions options;
  options.base = 1;
  const EdgeList list = read_edge_list(write_file(dir / "b.el", "1 2\n3 1\n"), options);
  EXPECT_EQ(list.num_vertices, 3u);
  EXPECT_EQ(list.edges, (std::vector<Edge>{{0, 1}, {2, 0}}));
}

TEST(TextFormat, EmptyAndCommentOnlyFilesHaveNoVertices) {
  const auto dir = test_dir();
  EXPECT_EQ(read_edge_list(write_file(dir / "e.el", "")).num_vertices, 0u);
  EXPECT_EQ(read_edge_list(write_file(dir / "c.el", "# nothing\n\n")).edges.size(), 0u);
}

TEST(TextFormat, ErrorNonNumericToken) {
  const auto dir = test_dir();
  const std::string path = write_file(dir / "bad.el", "0 1\n# c\n2 x3\n");
  expect_input_error([&] { read_edge_list(path); }, {path + ":3:", "target id 'x3' is not a number"});
}

// No algorithm can use a NaN or infinite weight: refused where read, with the line (issue 17).
TEST(TextFormat, ErrorWeightNotFinite) {
  const auto dir = test_dir();
  for (const char* token : {"nan", "inf", "-inf", "1e50"}) {
    const std::string path = write_file(dir / "bad.wel", std::string("0 1 2.5\n1 2 ") + token + "\n");
    expect_input_error([&] { read_edge_list(path); }, {path + ":2:", std::string("weight '") + token + "'"});
  }
  const std::string mtx =
      write_file(dir / "bad.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 nan\n");
  expect_input_error([&] { read_edge_list(mtx); }, {mtx + ":3:", "weight 'nan' is not a finite number"});
}

// An id that makes the graph larger than the machine is refused with the estimate, not bad_alloc.
TEST(TextFormat, ErrorIdTooLargeForTheMachine) {
  const auto dir = test_dir();
  const std::string path = write_file(dir / "huge.el", "4294967295 0\n");
  if (courier::physical_memory_bytes() > (std::uint64_t{32} << 30)) GTEST_SKIP() << "this machine holds 32 GiB";
  ::unsetenv("COURIER_IGNORE_MEMORY_ESTIMATE");
  // The reader, at the id's line, before anything per vertex exists...
  expect_input_error([&] { read_edge_list(path); },
                     {path + ":1:", "vertex id 4294967295 makes a graph of 4294967296 vertices", "needs about 32.0 GiB",
                      "--compact-ids"});
  // ...and, when told that the ids will be compacted, building the graph as it is.
  ReadOptions compacting;
  compacting.check_id_range = false;
  const EdgeList edges = read_edge_list(path, compacting);
  EXPECT_EQ(edges.num_vertices, std::uint64_t{4294967296});
  expect_input_error([&] { build_csr(edges); }, {"4294967296 vertices (ids up to 4294967295)", "needs about 32.0 GiB"});
}

TEST(TextFormat, ErrorNegativeId) {
  const auto dir = test_dir();
  const std::string path = write_file(dir / "bad.el", "-1 2\n");
  expect_input_error([&] { read_edge_list(path); }, {path + ":1:", "source id '-1' is negative"});
}

TEST(TextFormat, ErrorIdTooLarge) {
  const auto dir = test_dir();
  const std::string path = write_file(dir / "bad.el", "1 2\n1 99999999999999999999999\n");
  expect_input_error([&] { read_edge_list(path); }, {path + ":2:", "too large"});
  const std::string largest = write_file(dir / "max.el", "18446744073709551615 0\n");
  expect_input_error([&] { read_edge_list(largest); }, {largest + ":1:", "too large"});
}

TEST(TextFormat, ErrorIdBelowBase) {
  const auto dir = test_dir();
  const std::string path = write_file(dir / "bad.el", "1 2\n0 1\n");
  ReadOptions options;
  options.base = 1;
  expect_input_error([&] { read_edge_list(path, options); }, {path + ":2:", "source id 0 is below the smallest id 1"});
}

TEST(TextFormat, ErrorMissingWeight) {
  const auto dir = test_dir();
  const std::string path = write_file(dir / "bad.wel", "0 1 5\n1 2 6\n2 3\n");
  expect_input_error([&] { read_edge_list(path); }, {path + ":3:", "missing weight"});
}

TEST(TextFormat, ErrorUnexpectedWeight) {
  const auto dir = test_dir();
  const std::string path = write_file(dir / "bad.wel", "0 1\n1 2 6\n");
  expect_input_error([&] { read_edge_list(path); }, {path + ":2:", "unexpected third column"});
}

TEST(TextFormat, ErrorOneColumnAndTooManyColumns) {
  const auto dir = test_dir();
  const std::string one = write_file(dir / "one.el", "0 1\n7\n");
  expect_input_error([&] { read_edge_list(one); }, {one + ":2:", "found one column"});
  const std::string four = write_file(dir / "four.el", "0 1 2 3\n");
  expect_input_error([&] { read_edge_list(four); }, {four + ":1:", "found more columns"});
}

TEST(TextFormat, ErrorNonNumericWeight) {
  const auto dir = test_dir();
  const std::string path = write_file(dir / "bad.wel", "0 1 5\n1 2 heavy\n");
  expect_input_error([&] { read_edge_list(path); }, {path + ":2:", "weight 'heavy' is not a number"});
}

TEST(TextFormat, ErrorNegativeIntegerWeightInAnIntegerFile) {
  const auto dir = test_dir();
  const std::string path = write_file(dir / "bad.wel", "0 1 5\n1 2 -6\n2 0 1\n");
  expect_input_error([&] { read_edge_list(path); }, {path + ":2:", "weight '-6' is negative", "uint32"});
  const std::string big = write_file(dir / "big.wel", "0 1 4294967296\n");
  expect_input_error([&] { read_edge_list(big); }, {big + ":1:", "too large"});
}

TEST(TextFormat, ErrorMissingFile) {
  const auto dir = test_dir();
  const std::string path = (dir / "absent.el").string();
  expect_input_error([&] { read_edge_list(path); }, {path + ": cannot open: No such file or directory"});
}

TEST(TextFormat, ErrorUnknownExtension) {
  expect_input_error([] { read_edge_list("graph.xyz"); }, {"graph.xyz", "'.xyz'", ".mtx"});
  EXPECT_EQ(format_from_path("a/b.c/G.MTX"), Format::matrix_market);
}

// A file big enough to be cut into many chunks parsed by several threads.
std::string numbered_lines(int count, int weighted_from = -1) {
  std::string text = "# generated\n";
  for (int i = 0; i < count; ++i) {
    text += fmt::format("{}\t{}", i % 1000, (i * 7) % 1013);
    if (weighted_from >= 0 && i >= weighted_from) text += fmt::format(" {}", i % 9);
    text += i % 3 ? "\n" : "\r\n";
  }
  return text;
}

TEST(TextFormat, ParallelParsingGivesTheSameEdgesInFileOrder) {
  const auto dir = test_dir();
  const std::string path = write_file(dir / "many.el", numbered_lines(20000));
  ReadOptions one, seven;
  one.threads = 1;
  seven.threads = 7;
  const EdgeList a = read_edge_list(path, one), b = read_edge_list(path, seven);
  ASSERT_EQ(a.edges.size(), 20000u);
  EXPECT_EQ(a.edges, b.edges);
  EXPECT_EQ(a.num_vertices, b.num_vertices);
  EXPECT_EQ(b.edges[12345], (Edge{345, (12345 * 7) % 1013}));
}

TEST(TextFormat, ParallelParsingReportsTheLineOfTheFirstError) {
  const auto dir = test_dir();
  std::string text = numbered_lines(20000);
  // Line 1 is the comment, so edge i is on line i + 2.
  const std::size_t at = text.find(fmt::format("\n{}\t{}", 15555 % 1000, 15555 * 7 % 1013));
  ASSERT_NE(at, std::string::npos);
  text.insert(at + 1, "oops 5\n");
  const std::string path = write_file(dir / "many.el", text);
  ReadOptions seven;
  seven.threads = 7;
  expect_input_error([&] { read_edge_list(path, seven); }, {path + ":15557:", "'oops'"});
}

TEST(TextFormat, ParallelParsingChecksWeightsAgreeAcrossChunks) {
  const auto dir = test_dir();
  // Two chunks of equal size: 1000 unweighted lines, then 1000 weighted ones.
  std::string text;
  for (int i = 0; i < 1000; ++i) text += "10 20\n";
  for (int i = 0; i < 1000; ++i) text += "1 2 3\n";
  const std::string path = write_file(dir / "mixed.wel", text);
  ReadOptions two;
  two.threads = 2;
  expect_input_error([&] { read_edge_list(path, two); }, {path + ":1001:", "unexpected third column", "line 1 has none"});
  ReadOptions one;
  one.threads = 1;
  expect_input_error([&] { read_edge_list(path, one); }, {path + ":1001:", "unexpected third column"});
}

TEST(TextFormat, WritesFloatsThatReadBackAsFloats) {
  const auto dir = test_dir();
  EdgeList list;
  list.num_vertices = 2;
  list.edges = {{0, 1}, {1, 0}};
  list.weights = std::vector<float>{3.0f, 1e20f};
  write_edge_list((dir / "f.wel").string(), list);
  const EdgeList back = read_edge_list((dir / "f.wel").string());
  EXPECT_EQ(std::get<std::vector<float>>(back.weights), (std::vector<float>{3.0f, 1e20f}));
}

}  // namespace

}  // namespace text_format_test
