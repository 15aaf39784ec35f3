// Galois binary .gr: files laid out by hand (versions 1 and 2, with and without edge data, odd edge
// counts with their padding) read as Galois describes them, told apart from DIMACS .gr by content,
// written and read back, read in parts, and refused with the byte when malformed.
#include <gtest/gtest.h>

#include <cstring>

#include "courier/graph/io.hpp"
#include "io_test_util.hpp"
#include "parts_test_util.hpp"

namespace galois_test {

using namespace courier::graph;
using namespace courier::graph::test;

namespace {

// A Galois file from its parts, laid out here independently of Courier's writer.
struct Layout {
  std::uint64_t version = 1;
  std::vector<std::uint64_t> ends;  // out-index: the end of each vertex's edges
  std::vector<std::uint64_t> targets;
  std::vector<std::uint32_t> data;  // empty: no edge data
  bool v2_padding = false;          // version 2 with an odd count padded by 8 bytes, as Galois writes
};

template <class T>
void put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

std::string bytes_of(const Layout& l) {
  std::string out;
  put<std::uint64_t>(out, l.version);
  put<std::uint64_t>(out, l.data.empty() ? 0 : 4);
  put<std::uint64_t>(out, l.ends.size());
  put<std::uint64_t>(out, l.targets.size());
  for (auto e : l.ends) put(out, e);
  for (auto t : l.targets) l.version == 1 ? put(out, static_cast<std::uint32_t>(t)) : put(out, t);
  if (l.version == 1 && l.targets.size() % 2 == 1) put<std::uint32_t>(out, 0);
  if (l.v2_padding) put<std::uint64_t>(out, 0);
  for (auto w : l.data) put(out, w);
  return out;
}

// 4 vertices, 5 edges (odd: version 1 pads its targets): 0->1, 0->3, 2->0, 2->2, 3->1.
Layout small(std::uint64_t version, bool weights) {
  Layout l;
  l.version = version;
  l.ends = {2, 2, 4, 5};
  l.targets = {1, 3, 0, 2, 1};
  if (weights) l.data = {10, 20, 30, 4000000000u, 50};
  return l;
}

const std::vector<Edge> kSmallEdges{{0, 1}, {0, 3}, {2, 0}, {2, 2}, {3, 1}};

TEST(Galois, ReadsBothVersionsWithAndWithoutEdgeData) {
  const auto dir = test_dir();
  for (std::uint64_t version : {1, 2})
    for (bool weights : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "version " << version << (weights ? " with" : " without") << " edge data");
      const std::string path = write_file(dir / "g.gr", bytes_of(small(version, weights)));
      EXPECT_EQ(format_of_file(path), Format::galois);
      const EdgeList list = read_edge_list(path);
      EXPECT_EQ(list.num_vertices, 4u);
      EXPECT_EQ(list.edges, kSmallEdges);
      if (weights)
        EXPECT_EQ(std::get<std::vector<std::uint32_t>>(list.weights),
                  (std::vector<std::uint32_t>{10, 20, 30, 4000000000u, 50}));
      else
        EXPECT_FALSE(list.has_weights());
    }
}

TEST(Galois, VersionTwoWithGaloisPadding) {
  const auto dir = test_dir();
  Layout l = small(2, true);
  l.v2_padding = true;
  const EdgeList list = read_edge_list(write_file(dir / "g.gr", bytes_of(l)));
  EXPECT_EQ(list.edges, kSmallEdges);
  EXPECT_EQ(std::get<std::vector<std::uint32_t>>(list.weights)[4], 50u);
}

TEST(Galois, FloatEdgeDataOnRequest) {
  const auto dir = test_dir();
  Layout l = small(1, true);
  const float reals[] = {0.5f, 1.5f, -2.0f, 3.25f, 1e-3f};
  for (int i = 0; i < 5; ++i) std::memcpy(&l.data[i], &reals[i], 4);
  ReadOptions options;
  options.binary_weight = WeightType::f32;
  const EdgeList list = read_edge_list(write_file(dir / "g.gr", bytes_of(l)), options);
  EXPECT_EQ(std::get<std::vector<float>>(list.weights), std::vector<float>(reals, reals + 5));
}

TEST(Galois, DimacsGrStaysDimacs) {
  const auto dir = test_dir();
  const std::string path = write_file(dir / "d.gr", "c x\np sp 2 1\na 1 2 7\n");
  EXPECT_EQ(format_of_file(path), Format::dimacs);
  EXPECT_EQ(read_edge_list(path).edges, (std::vector<Edge>{{0, 1}}));
  EXPECT_EQ(format_of_file((dir / "absent.gr").string()), Format::dimacs);  // reading it says why
}

TEST(Galois, WrittenOnRequestAndReadBack) {
  const auto dir = test_dir();
  WriteOptions galois;
  galois.format = Format::galois;
  for (WeightType weights : {WeightType::none, WeightType::u32, WeightType::f32}) {
    SCOPED_TRACE(to_string(weights));
    const EdgeList original = random_graph(97, 601, weights);
    const std::string path = (dir / "g.gr").string();
    write_edge_list(path, original, galois);
    EXPECT_EQ(format_of_file(path), Format::galois);
    ReadOptions options;
    options.binary_weight = weights == WeightType::f32 ? WeightType::f32 : WeightType::none;
    const EdgeList back = read_edge_list(path, options);
    EXPECT_EQ(back.num_vertices, original.num_vertices);
    EXPECT_EQ(multiset(back), multiset(original));
    EXPECT_EQ(files_in(dir), std::vector<std::string>{"g.gr"}) << "no temporary left";
  }
  // Without the request, .gr is DIMACS.
  write_edge_list((dir / "plain.gr").string(), random_graph(10, 20, WeightType::u32));
  EXPECT_EQ(format_of_file((dir / "plain.gr").string()), Format::dimacs);
}

TEST(Galois, PartsJoinToTheWhole) {
  const auto dir = test_dir();
  expect_parts_join_to_whole(write_file(dir / "small.gr", bytes_of(small(1, true))));
  expect_parts_join_to_whole(write_file(dir / "small2.gr", bytes_of(small(2, false))));
  Layout empty;
  empty.ends = {0, 0, 0};
  expect_parts_join_to_whole(write_file(dir / "empty.gr", bytes_of(empty)));
  WriteOptions galois;
  galois.format = Format::galois;
  write_edge_list((dir / "random.gr").string(), random_graph(200, 3000, WeightType::u32), galois);
  expect_parts_join_to_whole((dir / "random.gr").string());
}

TEST(Galois, MalformedFilesNameTheByte) {
  const auto dir = test_dir();
  const std::string good = bytes_of(small(1, true));
  const auto read = [&](const std::string& bytes) {
    const std::string path = write_file(dir / "bad.gr", bytes);
    return [path] { (void)read_edge_list(path); };
  };
  expect_input_error(read(good.substr(0, 20)), {"bad.gr", "truncated: 20 bytes"});
  expect_input_error(read(good.substr(0, good.size() - 1)), {"bad.gr", "does not match the Galois .gr header"});
  std::string eight_byte_data = good;
  eight_byte_data[8] = 8;
  expect_input_error(read(eight_byte_data), {"edge data of 8 bytes per edge (byte 8)"});
  Layout beyond = small(1, false);
  beyond.targets[3] = 4;
  expect_input_error(read(bytes_of(beyond)), {"edge 3 (byte 76) of vertex 2 points to 4, beyond the 4 vertices"});
  Layout falling = small(2, false);
  falling.ends = {2, 1, 4, 5};
  expect_input_error(read(bytes_of(falling)),
                     {"corrupted out-index at byte 40: vertex 1 ends its edges at 1, before 2"});
  Layout short_index = small(1, false);
  short_index.ends = {2, 2, 4, 4};
  short_index.targets.pop_back();
  short_index.targets.push_back(1);  // 5 targets, the index ends at 4
  expect_input_error(read(bytes_of(short_index)), {"the last vertex ends its edges at 4, not at the 5 edges"});
  // Parts meet the same errors.
  const std::string path = write_file(dir / "parts.gr", bytes_of(beyond));
  expect_input_error([&] { (void)read_in_parts(path, 3); }, {"points to 4"});
}

}  // namespace

}  // namespace galois_test
