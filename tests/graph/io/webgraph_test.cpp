// WebGraph BVGraph: the real cnr-2000 graph (from the Laboratory for Web Algorithmics) read whole
// and in parts, with and without its .offsets, checked against the statistics its compressor wrote
// into the .properties (computed from the original lists, so independent of this reader); and
// malformed .properties and bit streams refused with the file and the place.
#include <gtest/gtest.h>

#include <bit>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "courier/graph/io.hpp"
#include "io_test_util.hpp"
#include "parts_test_util.hpp"

namespace webgraph_test {

using namespace courier::graph;
using namespace courier::graph::test;

namespace {

const std::string kBase = std::string(COURIER_SHARED_DATA) + "/cnr-2000";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string property(const std::string& key) {
  std::istringstream in(slurp(kBase + ".properties"));
  for (std::string line; std::getline(in, line);)
    if (line.starts_with(key + "=")) return line.substr(key.size() + 1);
  return "";
}

// WebGraph's "successorexpstats": over every list, how many gaps have each floor(log2): the gaps
// between consecutive successors, and the first successor's distance from the vertex, sign-folded
// (0, -1, 1, -2, ... as 0, 1, 2, 3, ...; a zero is not counted). Comma-separated, up to the last
// non-zero bin.
std::string successor_exp_stats(const Csr& csr) {
  std::vector<std::uint64_t> bins(64);
  for (vertex_t v = 0; v < csr.num_vertices(); ++v) {
    const auto list = csr.neighbors(v);
    if (list.empty()) continue;
    for (std::size_t i = 1; i < list.size(); ++i) bins[std::bit_width(list[i] - list[i - 1]) - 1]++;
    const std::int64_t first = static_cast<std::int64_t>(list[0]) - static_cast<std::int64_t>(v);
    const std::uint64_t folded =
        first >= 0 ? 2 * static_cast<std::uint64_t>(first) : 2 * static_cast<std::uint64_t>(-first) - 1;
    if (folded != 0) bins[std::bit_width(folded) - 1]++;
  }
  while (!bins.empty() && bins.back() == 0) bins.pop_back();
  std::string out;
  for (std::uint64_t b : bins) {
    if (!out.empty()) out += ',';
    out += std::to_string(b);
  }
  return out;
}

#define REQUIRE_CNR()                             \
  if (!std::filesystem::exists(kBase + ".graph")) \
  GTEST_SKIP() << kBase << ".graph is absent: the real-graph tests need COURIER_SHARED_DATA"

TEST(WebGraph, Cnr2000AsItsCompressorDescribesIt) {
  REQUIRE_CNR();
  EXPECT_EQ(format_of_file(kBase + ".graph"), Format::webgraph);
  const Csr csr = read_csr(kBase + ".graph");
  EXPECT_EQ(csr.num_vertices(), 325557u);
  EXPECT_EQ(csr.num_edges(), 3216152u);
  EXPECT_FALSE(csr.has_weights());
  edge_t largest = 0;
  for (vertex_t v = 0; v < csr.num_vertices(); ++v) {
    largest = std::max(largest, csr.degree(v));
    const auto list = csr.neighbors(v);
    for (std::size_t i = 1; i < list.size(); ++i)
      ASSERT_LT(list[i - 1], list[i]) << "vertex " << v << ": lists are sets";
  }
  EXPECT_EQ(largest, 2716u);
  EXPECT_EQ(successor_exp_stats(csr), property("successorexpstats"));
}

TEST(WebGraph, PartsJoinToTheWholeWithAndWithoutOffsets) {
  REQUIRE_CNR();
  expect_parts_join_to_whole(kBase + ".graph", {}, 4);
  // Without .offsets every part decodes from the start; the result is the same.
  const auto dir = test_dir();
  std::filesystem::copy_file(kBase + ".graph", dir / "cnr.graph");
  std::filesystem::copy_file(kBase + ".properties", dir / "cnr.properties");
  const EdgeList whole = read_edge_list(kBase + ".graph");
  const EdgeList joined = read_in_parts((dir / "cnr.graph").string(), 3);
  EXPECT_EQ(joined.num_vertices, whole.num_vertices);
  EXPECT_EQ(joined.edges, whole.edges);
}

TEST(WebGraph, ConvertsToCsrAndBack) {
  REQUIRE_CNR();
  const auto dir = test_dir();
  const EdgeList list = read_edge_list(kBase + ".graph");
  write_edge_list((dir / "cnr.csr").string(), list);
  const Csr back = read_csr((dir / "cnr.csr").string());
  EXPECT_EQ(to_edge_list(back).edges, list.edges);
  EXPECT_EQ(successor_exp_stats(back), property("successorexpstats"));
  expect_input_error([&] { write_edge_list((dir / "out.graph").string(), list, {.format = Format::webgraph}); },
                     {"does not write them"});
}

// A copy of cnr-2000 in a test folder, its .properties edited and its .graph cut to `graph_bytes`.
std::string copy_with(const std::filesystem::path& dir, const std::string& properties, std::size_t graph_bytes = 0) {
  const std::string graph = slurp(kBase + ".graph");
  write_file(dir / "g.graph", graph_bytes ? graph.substr(0, graph_bytes) : graph);
  write_file(dir / "g.properties", properties);
  return (dir / "g.graph").string();
}

std::string edited(const std::string& key, const std::string& value) {
  std::istringstream in(slurp(kBase + ".properties"));
  std::string out;
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with(key + "=")) {
      out.append(line).append("\n");
    } else if (!value.empty()) {
      out.append(key).append("=").append(value).append("\n");
    }
  }
  return out;
}

TEST(WebGraph, MalformedInputsNameTheFileAndPlace) {
  REQUIRE_CNR();
  const auto dir = test_dir();
  const auto read = [](const std::string& path) { return [path] { (void)read_edge_list(path); }; };
  expect_input_error(read(copy_with(dir, edited("nodes", ""))), {"g.properties", "missing the key 'nodes'"});
  expect_input_error(read(copy_with(dir, edited("arcs", "12x"))),
                     {"g.properties:", "arcs=12x: expected a non-negative"});
  expect_input_error(read(copy_with(dir, edited("compressionflags", "RESIDUALS_ZETA|OUTDEGREES_FOO"))),
                     {"g.properties:", "unknown compression flag 'OUTDEGREES_FOO'"});
  expect_input_error(read(copy_with(dir, edited("graphclass", "it.unimi.dsi.webgraph.EFGraph"))),
                     {"reads BVGraph files only"});
  expect_input_error(read(copy_with(dir, edited("version", "2"))), {"version 2 is not supported"});
  expect_input_error(read(copy_with(dir, slurp(kBase + ".properties"), 100000)),
                     {"g.graph", "the file is truncated or corrupted"});
  // More nodes than the stream holds: it ends inside a list.
  expect_input_error(read(copy_with(dir, edited("nodes", "325600"))), {"g.graph", "bit stream at bit"});
  // A wrong arc count is caught whole and in parts.
  const std::string fewer = copy_with(dir, edited("arcs", "3216151"));
  expect_input_error(read(fewer), {"more arcs than the 3216151"});
  expect_input_error([&] { (void)read_in_parts(fewer, 2); }, {"3216151"});
  // Offsets that do not belong to the graph.
  write_file(dir / "g.offsets", std::string(1000, '\x55'));
  expect_input_error([&] { (void)read_in_parts(copy_with(dir, slurp(kBase + ".properties")), 2); }, {"offsets"});
}

}  // namespace

}  // namespace webgraph_test
