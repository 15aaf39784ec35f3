// The five real graphs in ../shared/data, read with their quirks (CRLF, comment headers, gaps in
// ids, self loops, duplicate arcs, no final newline), give the reference answers their README lists.
#include <algorithm>
#include <filesystem>
#include <numeric>

#include <gtest/gtest.h>

#include "courier/graph/csr.hpp"
#include "courier/graph/io.hpp"
#include "courier/graph/reference.hpp"
#include "courier/graph/transform.hpp"

namespace real_graphs_test {

using namespace courier::graph;
namespace fs = std::filesystem;

namespace {

struct Expected {
  const char* file;
  bool declared_ids;  // .mtx / .gr: counts are over the declared 1..n, not only the ids that appear
  vertex_t vertices;
  edge_t undirected_edges;
  edge_t self_loops;
  vertex_t components;
  vertex_t largest;
  std::uint64_t triangles;
  vertex_t bfs_from;  // ids as in the file
  vertex_t reached;
  std::uint64_t max_level;
  vertex_t pagerank_top;
};

constexpr Expected kGraphs[] = {
    {"wiki-Vote.txt", false, 7115, 100762, 0, 24, 7066, 608389, 2565, 7066, 4, 2565},
    {"rome99.gr", true, 3353, 4831, 0, 1, 3353, 132, 1755, 3353, 51, 681},
    {"wb-cs-stanford.mtx", true, 9914, 27427, 1299, 522, 8929, 31597, 2264, 8929, 12, 9468},
    {"Lederberg.mtx", true, 8843, 41532, 6, 554, 8212, 52897, 232, 8212, 10, 232},
    {"ca-HepTh.txt", false, 9877, 25973, 25, 429, 8638, 28339, 1441, 8638, 11, 1441},
};

// The graph as the README counts it: undirected, over the ids that appear (or all declared ids);
// `file_id[v]` is the id the file uses for vertex v.
struct Undirected {
  Csr graph;
  std::vector<vertex_t> file_id;
  edge_t self_loops = 0;
};

Undirected undirected(const Expected& g) {
  const std::string path = (fs::path(COURIER_SHARED_DATA) / g.file).string();
  const EdgeList read = read_edge_list(path);
  Undirected u;
  u.self_loops = static_cast<edge_t>(std::count_if(read.edges.begin(), read.edges.end(),
                                                   [](const Edge& e) { return e.src == e.dst; }));
  EdgeList edges = remove_duplicate_edges(remove_self_loops(symmetrize(read)));
  const int base = g.declared_ids ? 1 : 0;  // 1-based formats are read as 0-based
  if (g.declared_ids) {
    u.file_id.resize(edges.num_vertices);
    std::iota(u.file_id.begin(), u.file_id.end(), vertex_t{1});
  } else {
    // Ids that appear: in any edge of the file, self loops included.
    std::vector<bool> appears(read.num_vertices, false);
    for (const Edge& e : read.edges) appears[e.src] = appears[e.dst] = true;
    std::vector<vertex_t> new_id(read.num_vertices, kNoVertex);
    for (vertex_t v = 0; v < read.num_vertices; ++v)
      if (appears[v]) {
        new_id[v] = u.file_id.size();
        u.file_id.push_back(v + base);
      }
    EdgeList compacted;
    compacted.num_vertices = u.file_id.size();
    for (const Edge& e : edges.edges) compacted.edges.push_back({new_id[e.src], new_id[e.dst]});
    edges = std::move(compacted);
  }
  u.graph = build_csr(edges);
  return u;
}

vertex_t vertex_of_file_id(const Undirected& u, vertex_t file_id) {
  const auto it = std::find(u.file_id.begin(), u.file_id.end(), file_id);
  return it == u.file_id.end() ? kNoVertex : static_cast<vertex_t>(it - u.file_id.begin());
}

class RealGraph : public ::testing::TestWithParam<Expected> {
 protected:
  void SetUp() override {
    if (!fs::exists(fs::path(COURIER_SHARED_DATA) / GetParam().file))
      GTEST_SKIP() << "no " << GetParam().file << " in " << COURIER_SHARED_DATA << ": the real graphs are not here";
  }
};

}  // namespace

TEST_P(RealGraph, GivesTheReferenceAnswers) {
  const Expected& g = GetParam();
  const Undirected u = undirected(g);
  EXPECT_EQ(u.graph.num_vertices(), g.vertices);
  EXPECT_EQ(u.graph.num_edges(), 2 * g.undirected_edges);
  EXPECT_EQ(u.self_loops, g.self_loops);

  const std::vector<vertex_t> label = reference::connected_components(u.graph);
  std::vector<vertex_t> size(label.size(), 0);
  for (vertex_t l : label) ++size[l];
  EXPECT_EQ(static_cast<vertex_t>(std::count_if(size.begin(), size.end(), [](vertex_t s) { return s > 0; })),
            g.components);
  EXPECT_EQ(*std::max_element(size.begin(), size.end()), g.largest);

  EXPECT_EQ(reference::triangles(u.graph).total, g.triangles);

  const vertex_t source = vertex_of_file_id(u, g.bfs_from);
  ASSERT_NE(source, kNoVertex);
  const auto bfs = reference::bfs(u.graph, source);
  vertex_t reached = 0;
  std::uint64_t max_level = 0;
  for (std::uint64_t level : bfs.level)
    if (level != reference::kUnreached) {
      ++reached;
      max_level = std::max(max_level, level);
    }
  EXPECT_EQ(reached, g.reached);
  EXPECT_EQ(max_level, g.max_level);

  const auto pr = reference::pagerank(u.graph);
  EXPECT_TRUE(pr.converged);
  const auto top = std::max_element(pr.rank.begin(), pr.rank.end()) - pr.rank.begin();
  EXPECT_EQ(u.file_id[static_cast<std::size_t>(top)], g.pagerank_top);
}

INSTANTIATE_TEST_SUITE_P(SharedData, RealGraph, ::testing::ValuesIn(kGraphs),
                         [](const auto& info) {
                           std::string name = info.param.file;
                           std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(c); }, '_');
                           return name;
                         });

TEST(RealGraphs, Rome99DistancesAsPublished) {
  const fs::path path = fs::path(COURIER_SHARED_DATA) / "rome99.gr";
  if (!fs::exists(path)) GTEST_SKIP() << "no rome99.gr in " << COURIER_SHARED_DATA;
  const EdgeList arcs = remove_duplicate_edges(read_edge_list(path.string()));
  struct Case {
    bool undirected;
    vertex_t from;  // file id
    std::uint64_t sum, largest;
  };
  for (const Case& c : {Case{false, 1755, 34019747, 43069}, Case{false, 1, 116006476, 69102},
                        Case{true, 1755, 32557878, 42441}, Case{true, 1, 115493888, 68684}}) {
    const Csr g = build_csr(c.undirected ? remove_duplicate_edges(symmetrize(arcs)) : arcs);
    const auto sssp = reference::sssp(g, c.from - 1);
    std::uint64_t sum = 0, largest = 0, reached = 0;
    for (std::uint64_t d : sssp.dist_int)
      if (d != reference::kUnreached) {
        ++reached;
        sum += d;
        largest = std::max(largest, d);
      }
    EXPECT_EQ(reached, 3353u);
    EXPECT_EQ(sum, c.sum) << "from " << c.from << (c.undirected ? " undirected" : " directed");
    EXPECT_EQ(largest, c.largest);
  }
}

}  // namespace real_graphs_test
