// Courier's .csr files: zero-copy loading and the detection of damaged files.
#include <gtest/gtest.h>

#include <cstring>

#include "courier/graph/io.hpp"
#include "graph/io/io_test_util.hpp"

namespace csr_format_test {

using namespace courier::graph;
using namespace courier::graph::test;

namespace {

std::string read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

class CsrFormat : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test_dir();
    original_ = build_csr(random_graph(30, 200, WeightType::f32));
    path_ = (dir_ / "g.csr").string();
    write_csr(path_, original_);
    bytes_ = read_bytes(path_);
  }
  // Writes a damaged copy and returns its path.
  std::string damaged(const std::function<void(std::string&)>& damage) {
    std::string bytes = bytes_;
    damage(bytes);
    return write_file(dir_ / "bad.csr", bytes);
  }
  std::filesystem::path dir_;
  Csr original_;
  std::string path_;
  std::string bytes_;
};

TEST_F(CsrFormat, LayoutIsHeaderThenAlignedArrays) {
  const std::size_t n = original_.num_vertices(), m = original_.num_edges();
  EXPECT_EQ(bytes_.size(), 64 + (n + 1) * 8 + m * 8 + (m * 4 + 7) / 8 * 8);
  EXPECT_EQ(bytes_.substr(0, 8), std::string("COURCSR\n"));
}

TEST_F(CsrFormat, LoadsWithoutCopyingFromTheMapping) {
  const Csr csr = read_csr(path_);
  // Both arrays sit where the file has them, one after the other: borrowed from one mapping.
  EXPECT_EQ(reinterpret_cast<const char*>(csr.targets().data()),
            reinterpret_cast<const char*>(csr.offsets().data()) + (csr.num_vertices() + 1) * 8);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(csr.offsets().data()) % 4096, 64u);
  EXPECT_EQ(std::vector<float>(csr.weights_as<float>().begin(), csr.weights_as<float>().end()),
            std::vector<float>(original_.weights_as<float>().begin(), original_.weights_as<float>().end()));
  EXPECT_EQ(multiset(to_edge_list(csr)), multiset(to_edge_list(original_)));
}

TEST_F(CsrFormat, KnownSymmetryIsKeptInTheHeader) {
  EXPECT_FALSE(read_csr(path_).symmetric());  // not known: the flag is 0
  Csr marked = original_;
  marked.set_symmetric(true);
  const std::string path = (dir_ / "symmetric.csr").string();
  write_csr(path, marked);
  EXPECT_TRUE(read_csr(path).symmetric());
  EXPECT_EQ(read_bytes(path).substr(40, 8), std::string("\x01\0\0\0\0\0\0\0", 8));  // flags at byte 40
  write_csr(path, original_, {.symmetric = true});                                  // or said when writing
  EXPECT_TRUE(read_csr(path).symmetric());
}

TEST_F(CsrFormat, ErrorWrongMagic) {
  const std::string bad = damaged([](std::string& b) { b[0] = 'X'; });
  expect_input_error([&] { read_csr(bad); }, {bad + ": not a Courier .csr file", "magic"});
}

TEST_F(CsrFormat, ErrorUnsupportedVersion) {
  const std::string bad = damaged([](std::string& b) { b[8] = 9; });
  expect_input_error([&] { read_csr(bad); }, {bad + ": unsupported .csr version 9"});
}

TEST_F(CsrFormat, ErrorTruncated) {
  const std::string bad = damaged([](std::string& b) { b.resize(b.size() - 8); });
  expect_input_error([&] { read_csr(bad); }, {bad + ": size", "does not match the header", "truncated"});
  const std::string tiny = damaged([](std::string& b) { b.resize(10); });
  expect_input_error([&] { read_csr(tiny); }, {tiny + ": truncated: 10 bytes"});
}

TEST_F(CsrFormat, ErrorChecksumMismatchUnlessVerificationIsSkipped) {
  const std::size_t last_target = 64 + (original_.num_vertices() + 1) * 8 + (original_.num_edges() - 1) * 8;
  const std::string bad = damaged([&](std::string& b) { b[last_target] ^= 1; });
  expect_input_error([&] { read_csr(bad); }, {bad + ": checksum mismatch", "corrupted"});
  ReadOptions trusting;
  trusting.verify_checksum = false;
  EXPECT_EQ(read_csr(bad, trusting).num_edges(), original_.num_edges());
}

TEST_F(CsrFormat, ErrorOffsetsNotMonotoneEvenWithoutChecksum) {
  const std::string bad = damaged([&](std::string& b) {
    const std::uint64_t huge = 1000000;
    std::memcpy(&b[64 + 8 * 5], &huge, 8);
  });
  ReadOptions trusting;
  trusting.verify_checksum = false;
  expect_input_error([&] { read_csr(bad, trusting); }, {bad + ": corrupted offsets: not monotone at vertex 5"});
  expect_input_error([&] { read_csr(bad); }, {bad + ": checksum mismatch"});
}

// Another writer's file: the checksum matches its body, whose targets lie beyond the vertices.
TEST_F(CsrFormat, ErrorTargetsBeyondTheVerticesEvenWithAMatchingChecksum) {
  const std::string bad = (dir_ / "beyond.csr").string();
  std::vector<edge_t> offsets{0, 1, 2, 3};
  std::vector<vertex_t> targets{1, 7, 0};  // vertex 1 -> 7, in a graph of 3 vertices
  write_csr(bad, Csr(courier::Buffer<edge_t>(std::move(offsets)), courier::Buffer<vertex_t>(std::move(targets))));
  expect_input_error([&] { read_csr(bad); },
                     {bad + ": corrupted edge 1 (byte 104): vertex 1 points to 7, but the graph has vertices 0..2"});
  ReadOptions trusting;
  trusting.verify_checksum = false;
  expect_input_error([&] { read_csr(bad, trusting); }, {"vertex 1 points to 7"});
}

TEST_F(CsrFormat, WriterReplacesFilesAtomically) {
  // Overwriting keeps readers of the old mapping safe: the old inode lives on.
  const Csr before = read_csr(path_);
  write_csr(path_, build_csr(random_graph(5, 3, WeightType::none)));
  EXPECT_EQ(before.num_edges(), original_.num_edges());
  EXPECT_EQ(read_csr(path_).num_vertices(), 5u);
}

}  // namespace

}  // namespace csr_format_test
