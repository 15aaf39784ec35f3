// Reading a graph in parts: for every format and every number of parts (more parts than lines
// too), the parts, finished together, concatenate to exactly what the whole-file reader returns,
// in the same order; malformed parts name the file and the line counted from the file's start.
#include "courier/graph/slice.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <optional>

#include "courier/graph/io.hpp"
#include "courier/graph/load.hpp"
#include "courier/graph/transform.hpp"
#include "io_test_util.hpp"
#include "parts_test_util.hpp"

namespace slice_test {

using namespace courier::graph;
using courier::graph::test::expect_input_error;
using courier::graph::test::expect_parts_join_to_whole;
using courier::graph::test::first_vertices;
using courier::graph::test::read_in_parts;
using courier::graph::test::test_dir;
using courier::graph::test::write_file;

namespace {

EdgeList sample(WeightType weights) {
  EdgeList list;
  list.num_vertices = 23;  // beyond the largest id: only formats with a header keep it
  std::vector<std::uint32_t> ints;
  std::vector<float> reals;
  for (vertex_t i = 0; i < 40; ++i) {
    list.edges.push_back({(i * 7) % 19, (i * 5) % 17});
    ints.push_back(static_cast<std::uint32_t>(i * 1000003 % 255 + 1));
    reals.push_back(static_cast<float>(i) / 4.0f);
  }
  if (weights == WeightType::u32) list.weights = ints;
  if (weights == WeightType::f32) list.weights = reals;
  return list;
}

TEST(Slice, TextLinesCutAnywhere) {
  const auto dir = test_dir();
  expect_parts_join_to_whole(write_file(dir / "a.el", "# c\n0 1\r\n\n\n12 3\n% x\n   4    5   \n5 6\n7 8"));
  expect_parts_join_to_whole(write_file(dir / "one.el", "3 4\n"));
  expect_parts_join_to_whole(write_file(dir / "empty.el", ""));
  expect_parts_join_to_whole(write_file(dir / "base1.el", "1 2\n2 3\n3 1\n"), [] {
    LoadOptions o;
    o.read.base = 1;
    return o;
  }());
  const std::string counted = (dir / "counted.wel").string();
  write_edge_list(counted, sample(WeightType::u32));  // with Courier's counts comment
  expect_parts_join_to_whole(counted);
  const std::string reals = (dir / "reals.wel").string();
  write_edge_list(reals, sample(WeightType::f32));
  expect_parts_join_to_whole(reals);
  // Integers everywhere but one real at the end: every part's weights become floats.
  expect_parts_join_to_whole(write_file(dir / "late.wel", "0 1 1\n1 2 2\n2 3 3\n3 4 4\n4 5 0.5\n"));
  // A weight beyond uint32 is fine when the file has reals elsewhere.
  expect_parts_join_to_whole(write_file(dir / "wide.wel", "0 1 9999999999\n1 2 2\n2 3 3\n3 4 0.5\n"));
}

TEST(Slice, EveryOtherFormat) {
  const auto dir = test_dir();
  for (const char* name : {"g.mtx", "g.gr", "g.csr", "g.graph"}) {
    const std::string path = (dir / name).string();
    EdgeList list = sample(std::string(name) == "g.graph" ? WeightType::none : WeightType::u32);
    if (std::string(name) == "g.graph") {  // METIS needs a simple symmetric graph
      list = remove_duplicate_edges(remove_self_loops(symmetrize(list)));
    }
    write_edge_list(path, list);
    expect_parts_join_to_whole(path);
  }
  const std::string real_mtx = (dir / "r.mtx").string();
  write_edge_list(real_mtx, sample(WeightType::f32));
  expect_parts_join_to_whole(real_mtx);
  expect_parts_join_to_whole(write_file(dir / "sym.mtx",
                                        "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n1 1\n2 1\n%c\n3 2\n"));
  const std::string sparse_csr = (dir / "sparse.csr").string();
  EdgeList sparse;
  sparse.num_vertices = 1000;
  sparse.edges = {{999, 0}, {3, 4}};
  write_edge_list(sparse_csr, sparse);
  expect_parts_join_to_whole(sparse_csr);
}

TEST(Slice, BinaryRecordsAndTheWidthVote) {
  const auto dir = test_dir();
  for (int width : {4, 8}) {
    const std::string path = (dir / ("w" + std::to_string(width) + ".bel")).string();
    WriteOptions w;
    w.binary_id_bytes = width;
    write_edge_list(path, sample(WeightType::none), w);
    expect_parts_join_to_whole(path);
  }
  const std::string weighted = (dir / "weighted.bel").string();
  write_edge_list(weighted, sample(WeightType::u32));
  LoadOptions options;
  options.read.binary_weight = WeightType::u32;
  expect_parts_join_to_whole(weighted, options);
}

TEST(Slice, GeneratorsMakeOnlyTheirShare) {
  LoadOptions options;
  options.weights = true;
  expect_parts_join_to_whole("kron:7", options);
  expect_parts_join_to_whole("urand:6:ef=3:seed=9");
  EXPECT_EQ(read_edge_slice("kron:7", {}, 1, 4).edges.edges.size(), 16u * 128 / 4);
  expect_parts_join_to_whole("path:37", options);
  expect_parts_join_to_whole("grid:7x9:seed=3", options);
  EXPECT_EQ(read_edge_slice("grid:10x10", {}, 3, 4).edges.edges.size(), 360u / 4);
}

// The error of the part that has the bad line, with the line counted from the start of the file.
void expect_part_error(const std::string& graph, std::uint64_t parts, const std::string& what) {
  std::string message;
  try {
    read_in_parts(graph, parts);
  } catch (const courier::InputError& e) {
    message = e.what();
  }
  EXPECT_NE(message.find(what), std::string::npos) << "got: " << message;
}

TEST(Slice, ErrorsNameTheFileAndTheLine) {
  const auto dir = test_dir();
  const std::string text = write_file(dir / "bad.el", "0 1\n1 2\n2 3\n# c\n3 4\n4 y\n");
  for (std::uint64_t parts : {1, 2, 3, 5}) expect_part_error(text, parts, text + ":6: target id 'y'");
  const std::string columns = write_file(dir / "cols.el", "0 1\n1 2\n2 3\n3 4\n4 5 7\n");
  expect_part_error(columns, 1, columns + ":5:");
  expect_part_error(columns, 4, "every line needs the same columns");
  const std::string big = write_file(dir / "big.wel", "0 1 1\n1 2 2\n2 3 3\n3 4 99999999999\n");
  for (std::uint64_t parts : {1, 3}) expect_part_error(big, parts, big + ":4: weight '99999999999'");
  const std::string mtx = write_file(dir / "bad.mtx", "%%MatrixMarket matrix coordinate integer general\n%\n4 4 3\n1 2 1\n2 3 1\n3 5 1\n");
  for (std::uint64_t parts : {1, 2, 3}) expect_part_error(mtx, parts, mtx + ":6: column 5 is outside 1..4");
  const std::string more = write_file(dir / "more.mtx", "%%MatrixMarket matrix coordinate pattern general\n4 4 1\n1 2\n2 3\n");
  expect_part_error(more, 1, more + ":4: more entries than the 1 declared");
  expect_part_error(more, 2, more + ":2: the header declares 1");
  const std::string gr = write_file(dir / "bad.gr", "c x\np sp 3 2\na 1 2 1\np sp 3 2\n");
  for (std::uint64_t parts : {1, 2}) expect_part_error(gr, parts, gr + ":4: a second 'p' line (the first is line 2)");
  const std::string counted = write_file(dir / "counted.el", "# courier edge list: vertices 4 edges 3 base 0\n0 1\n1 2\n");
  for (std::uint64_t parts : {1, 2}) expect_part_error(counted, parts, counted + ":1: the header declares 3 edges but the file has 2");
  const std::string ids = write_file(dir / "ids.el", "# courier edge list: vertices 4 edges 2 base 0\n0 1\n1 7\n");
  expect_part_error(ids, 2, "the header declares 4 vertices but vertex id 7 appears");
}

// Every part read, then every part finished: the message each part's finish_slice throws.
std::vector<std::string> finish_messages(const std::string& graph, std::uint64_t parts) {
  const std::vector<std::optional<std::uint64_t>> first = first_vertices(graph, parts);
  std::vector<EdgeSlice> slices;
  std::vector<SliceFacts> facts;
  for (std::uint64_t p = 0; p < parts; ++p) {
    slices.push_back(read_edge_slice(graph, {}, p, parts, first[p]));
    facts.push_back(SliceFacts::deserialize(slices.back().facts.serialize()));
  }
  std::vector<std::string> messages;
  for (EdgeSlice& slice : slices) {
    try {
      finish_slice(slice, facts);
      messages.push_back("no error");
    } catch (const courier::InputError& e) {
      messages.push_back(e.what());
    }
  }
  return messages;
}

void expect_every_part_fails(const std::string& graph, std::uint64_t parts, const std::string& what) {
  SCOPED_TRACE(::testing::Message() << graph << " in " << parts << " parts");
  const auto messages = finish_messages(graph, parts);
  for (const std::string& m : messages) {
    EXPECT_NE(m.find(what), std::string::npos) << "got: " << m;
    EXPECT_EQ(m, messages[0]);
  }
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// A .csr file's checksum is checked in parts too: each part hashes the blocks in its rows, the
// parts' hashes together make the checksum, and a corrupted file fails on every part alike,
// with the message the whole-file reader gives, even where no part's structural checks see it.
TEST(Slice, CsrChecksumIsCheckedInParts) {
  const auto dir = test_dir();
  const std::string good = (dir / "good.csr").string();
  const EdgeList list = sample(WeightType::f32);
  write_edge_list(good, list);
  for (std::uint64_t parts = 1; parts <= 9; ++parts)
    for (const std::string& m : finish_messages(good, parts)) EXPECT_EQ(m, "no error");
  const std::string bytes = file_bytes(good);
  const std::uint64_t n = list.num_vertices, m = list.edges.size();
  // Damage no structural check sees: a reserved header byte, a target still below n, a weight.
  for (const std::uint64_t at : {std::uint64_t{40}, 64 + (n + 1) * 8 + 5 * 8, 64 + (n + 1) * 8 + m * 8 + 4 * (m - 1)}) {
    std::string damaged = bytes;
    damaged[at] ^= 0x01;
    const std::string bad = write_file(dir / "bad.csr", damaged);
    expect_input_error([&] { read_edge_list(bad); }, {bad + ": checksum mismatch"});
    for (std::uint64_t parts : {1, 2, 3, 4, 9}) expect_every_part_fails(bad, parts, bad + ": checksum mismatch");
  }
}

// Arrays of several 16 MiB checksum blocks, cut between parts inside blocks: the parts' blocks
// still make the whole checksum, and damage in any block is found.
TEST(Slice, CsrChecksumOverManyBlocks) {
  const auto dir = test_dir();
  EdgeList list;
  list.num_vertices = 2'200'000;  // offsets: 2 blocks
  std::vector<std::uint32_t> weights;
  for (std::uint64_t i = 0; i < 4'500'000; ++i) {  // targets: 3 blocks, weights: 2
    list.edges.push_back({(i * 2654435761u) % list.num_vertices, (i * 40503u + 7) % list.num_vertices});
    weights.push_back(static_cast<std::uint32_t>(i % 1000));
  }
  list.weights = std::move(weights);
  const std::string good = (dir / "many.csr").string();
  write_edge_list(good, list);
  for (std::uint64_t parts : {1, 2, 3, 4})
    for (const std::string& m : finish_messages(good, parts)) EXPECT_EQ(m, "no error");
  const std::uint64_t n = list.num_vertices, m = list.edges.size();
  const std::uint64_t targets = 64 + (n + 1) * 8, weights_at = targets + m * 8;
  std::string bytes = file_bytes(good);
  const std::uint64_t k = (20u << 20) / 8;  // a target in the targets' second block
  const vertex_t target = (k * 40503u + 7) % n;
  ASSERT_LT(target ^ 4, n);  // damaged, it is still a vertex: only the checksum sees it
  for (const std::uint64_t at : {targets + k * 8, weights_at + (17u << 20)}) {  // the 2nd block of each
    std::string damaged = bytes;
    damaged[at] ^= 0x04;
    const std::string bad = write_file(dir / "many_bad.csr", damaged);
    for (std::uint64_t parts : {1, 3, 4}) expect_every_part_fails(bad, parts, bad + ": checksum mismatch");
  }
}

// METIS files are read in parts: each part counts its vertex lines, takes the earlier parts' sum as
// its first vertex, and reads its own lines. Cut anywhere: in comments, in runs of blank lines
// (vertices without neighbours), between a neighbour and its weight's line, CRLF lines.
TEST(Slice, MetisLinesCutAnywhere) {
  const auto dir = test_dir();
  // 9 vertices: 4, 5 and 7 isolated (blank lines, one of spaces), comments between and inside.
  const std::string plain = write_file(dir / "p.graph",
                                       "% a comment\n%another\n\n9 5\n2 3\n1 3\n% inside\n1 2 8\n\n   \n"
                                       "   % indented comment\n9\n%\n\n3\n6 \n");
  expect_parts_join_to_whole(plain);
  EXPECT_EQ(load_edge_list(plain).edges, (std::vector<Edge>{{0, 1}, {0, 2}, {1, 0}, {1, 2}, {2, 0}, {2, 1}, {2, 7},
                                                             {5, 8}, {7, 2}, {8, 5}}));
  const std::string weighted = write_file(dir / "w.graph",
                                          "5 4 011 2\r\n1 1 2 5 3 6\r\n%c\r\n1 1 1 5\r\n1 1 1 6 4 7\r\n1 1 3 7 5 8\r\n"
                                          "1 1 4 8\r\n\r\n\r\n");
  expect_parts_join_to_whole(weighted);
  const std::string no_newline = write_file(dir / "n.graph", "3 2\n2\n1 3\n2");
  expect_parts_join_to_whole(no_newline);
  expect_parts_join_to_whole(write_file(dir / "last.graph", "3 1\n\n3\n2"));
  expect_parts_join_to_whole(write_file(dir / "empty.graph", "% nothing\n0 0\n"));
  expect_parts_join_to_whole(write_file(dir / "header_only.graph", "0 0"));
  // Written by Courier, weighted, larger: many lines per part.
  EdgeList list = remove_duplicate_edges(remove_self_loops(symmetrize(sample(WeightType::u32))));
  const std::string written = (dir / "s.graph").string();
  write_edge_list(written, list);
  expect_parts_join_to_whole(written);
}

TEST(Slice, MetisPartsCountOnlyTheirOwnLines) {
  const auto dir = test_dir();
  const std::string path = write_file(dir / "c.graph", "% c\n4 3\n2 3 4\n1\n%\n1\n1\n");
  // The 14 bytes after the header cut at byte 7: "2 3 4\n1\n" | "%\n1\n1\n" (a line goes with its
  // first byte): by lines, not by edges (4 of the 6 are in the first part).
  EXPECT_EQ(metis_vertex_lines(path, {}, 0, 2), 2u);
  EXPECT_EQ(metis_vertex_lines(path, {}, 1, 2), 2u);
  EXPECT_EQ(first_vertices(path, 2)[1], 2u);
  EXPECT_EQ(read_edge_slice(path, {}, 0, 2).edges.edges, (std::vector<Edge>{{0, 1}, {0, 2}, {0, 3}, {1, 0}}));
  EXPECT_EQ(read_edge_slice(path, {}, 1, 2, 2).edges.edges, (std::vector<Edge>{{2, 0}, {3, 0}}));
  EXPECT_FALSE(metis_vertex_lines((dir / "x.el").string(), {}, 0, 2).has_value());
  EXPECT_THROW(read_edge_slice(path, {}, 1, 2), courier::Error);  // a later part without its first vertex
}

// Malformed METIS files fail on every part with the whole-file reader's FILE:LINE message.
TEST(Slice, MetisErrorsNameTheFileAndTheLineOnEveryPart) {
  const auto dir = test_dir();
  struct Case {
    const char* name;
    const char* text;
    const char* what;  // after FILE
  };
  for (const Case& c : {
           Case{"beyond.graph", "% c\n3 2\n2 3\n1\n%\n1 4\n", ":6: neighbour 4 is outside 1..3"},
           Case{"word.graph", "3 2\n2 3\n\n1 x\n", ":4: neighbour 'x' is not a number"},
           Case{"weight.graph", "3 1 001\n2 5\n1 5\n\n%\n\n", "no error"},
           Case{"noweight.graph", "3 1 001\n2 5\n1\n\n", ":3: missing weight"},
           Case{"more.graph", "2 1\n2\n1\n\n%\n1\n", ":6: more vertex lines than the 2 declared on line 1"},
           Case{"fewer.graph", "% c\n4 1\n2\n1\n%\n", ":2: the header declares 4 vertices but the file has 2 vertex lines"},
           Case{"edges.graph", "%\n3 2\n2 3\n1 3\n1 2\n", ":2: the header declares 2 edges but the lines list 6 neighbours"},
           Case{"header.graph", "% only\n%comments\n", ": missing the header"},
       }) {
    const std::string path = write_file(dir / c.name, c.text);
    SCOPED_TRACE(path);
    std::string whole = "no error";
    try {
      read_edge_list(path);
    } catch (const courier::InputError& e) {
      whole = e.what();
    }
    const std::string expected = std::string(c.what) == "no error" ? "no error" : path + c.what;
    EXPECT_NE(whole.find(expected), std::string::npos) << whole;
    for (std::uint64_t parts : {1, 2, 3, 4, 7}) {
      std::vector<std::string> messages;
      try {
        messages = finish_messages(path, parts);
      } catch (const courier::InputError& e) {
        messages = {e.what()};  // a part's own lines: thrown while reading it
      }
      for (const std::string& m : messages) EXPECT_EQ(m, whole) << parts << " parts";
    }
  }
}

}  // namespace

}  // namespace slice_test
