// The real graphs in COURIER_SHARED_DATA read as their publishers describe them (README.md there).
#include <gtest/gtest.h>

#include <set>

#include "courier/graph/io.hpp"
#include "graph/io/io_test_util.hpp"

namespace shared_data_test {

using namespace courier::graph;

namespace {

struct Expected {
  const char* file;
  std::uint64_t edges;       // as listed in the file
  std::uint64_t self_loops;
  vertex_t largest_id;       // 0-based for .mtx and .gr, as written for SNAP text
  std::uint64_t vertices;    // ids that appear (text) or declared n (.mtx, .gr)
  std::uint64_t undirected;  // both directions, no loops, duplicates merged, counted once
};

// Numbers from /work/shared/data/README.md, edges and largest ids counted from the files.
const Expected kFiles[] = {
    {"wiki-Vote.txt", 103689, 0, 8297, 7115, 100762},
    {"rome99.gr", 8870, 0, 3352, 3353, 4831},
    {"wb-cs-stanford.mtx", 36854, 1299, 9913, 9914, 27427},
    {"Lederberg.mtx", 41601, 6, 8842, 8843, 41532},
    {"ca-HepTh.txt", 51971, 25, 68745, 9877, 25973},
};

// The undirected graph as the README counts it: symmetrized, self-loops dropped, deduplicated.
std::uint64_t undirected_edges(const EdgeList& list) {
  std::vector<Edge> edges;
  for (const Edge& e : list.edges)
    if (e.src != e.dst) edges.push_back({std::min(e.src, e.dst), std::max(e.src, e.dst)});
  std::sort(edges.begin(), edges.end());
  return static_cast<std::uint64_t>(std::unique(edges.begin(), edges.end()) - edges.begin());
}

class SharedData : public ::testing::TestWithParam<Expected> {};

TEST_P(SharedData, ReadsAsDescribed) {
  const Expected expected = GetParam();
  const std::string path = std::string(COURIER_SHARED_DATA) + "/" + expected.file;
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is absent: the real-graph tests need COURIER_SHARED_DATA";
  const EdgeList list = read_edge_list(path);
  EXPECT_EQ(list.edges.size(), expected.edges);
  std::uint64_t loops = 0;
  vertex_t largest = 0;
  std::set<vertex_t> ids;
  for (const Edge& e : list.edges) {
    loops += e.src == e.dst;
    largest = std::max({largest, e.src, e.dst});
    ids.insert(e.src);
    ids.insert(e.dst);
  }
  EXPECT_EQ(loops, expected.self_loops);
  EXPECT_EQ(largest, expected.largest_id);
  const bool declared = format_from_path(path) != Format::text;
  EXPECT_EQ(declared ? list.num_vertices : ids.size(), expected.vertices);
  EXPECT_EQ(undirected_edges(list), expected.undirected);

  // Reading with --symmetrize adds the reverse of every non-loop edge.
  ReadOptions symmetrize;
  symmetrize.symmetrize = true;
  const EdgeList both = read_edge_list(path, symmetrize);
  EXPECT_EQ(both.edges.size(), 2 * expected.edges - expected.self_loops);
  EXPECT_EQ(undirected_edges(both), expected.undirected);
}

INSTANTIATE_TEST_SUITE_P(RealGraphs, SharedData, ::testing::ValuesIn(kFiles), [](const auto& info) {
  std::string name = info.param.file;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
});

TEST(SharedData, WeightsAreRead) {
  const std::string rome = std::string(COURIER_SHARED_DATA) + "/rome99.gr";
  const std::string lederberg = std::string(COURIER_SHARED_DATA) + "/Lederberg.mtx";
  if (!std::filesystem::exists(rome) || !std::filesystem::exists(lederberg)) GTEST_SKIP() << "shared data absent";
  EXPECT_EQ(read_edge_list(rome).weight_type(), WeightType::u32);
  const EdgeList citations = read_edge_list(lederberg);
  const auto& multiplicities = std::get<std::vector<std::uint32_t>>(citations.weights);
  EXPECT_EQ(multiplicities.size(), 41601u);
  EXPECT_GE(*std::min_element(multiplicities.begin(), multiplicities.end()), 1u);
}

}  // namespace

}  // namespace shared_data_test
