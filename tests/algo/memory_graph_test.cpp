// A graph held in memory (LoadOptions::memory, what the Python bindings hand the harness): the
// loaders take it in place of a file, without copying it where no transform is asked for, the
// ranks' shares join to the whole graph, and every engine gives what it gives on the same graph
// generated.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <variant>

#include "courier/algo/builtin.hpp"
#include "courier/graph/load.hpp"
#include "courier/graph/slice.hpp"
#include "courier/harness/run.hpp"

namespace memory_graph_test {

using namespace courier;

namespace {

std::shared_ptr<const graph::Csr> generated(const std::string& spec, bool weights) {
  graph::LoadOptions load;
  load.weights = weights;
  return std::make_shared<const graph::Csr>(graph::load_graph(spec, load));
}

harness::RunSpec spec_for(const std::string& algorithm, const std::string& engine, int ranks) {
  harness::RunSpec spec;
  spec.algorithm = algorithm;
  spec.engine = engine;
  spec.ranks = ranks;
  spec.threads = 1;
  spec.verify = true;
  return spec;
}

}  // namespace

TEST(MemoryGraph, LoadGraphSharesTheStorageUnlessTransformed) {
  const auto csr = generated("kron:6", true);
  graph::LoadOptions load;
  load.memory = csr;
  const graph::Csr same = graph::load_graph("in memory", load);
  EXPECT_EQ(same.targets().data(), csr->targets().data());
  EXPECT_EQ(same.offsets().data(), csr->offsets().data());
  load.symmetrize = true;
  const graph::Csr both = graph::load_graph("in memory", load);
  graph::LoadOptions generate;
  generate.weights = true;
  generate.symmetrize = true;
  const graph::Csr expected = graph::load_graph("kron:6", generate);
  EXPECT_NE(both.targets().data(), csr->targets().data());
  EXPECT_TRUE(std::ranges::equal(both.targets(), expected.targets()));
  EXPECT_TRUE(std::ranges::equal(both.offsets(), expected.offsets()));
}

TEST(MemoryGraph, PartsJoinToTheWholeGraphInOrder) {
  const auto csr = generated("kron:6", true);
  const graph::EdgeList whole = graph::to_edge_list(*csr);
  graph::LoadOptions load;
  load.memory = csr;
  for (std::uint64_t parts : {1, 2, 3, 7, 5000}) {
    std::vector<graph::EdgeSlice> slices;
    std::vector<graph::SliceFacts> facts;
    for (std::uint64_t p = 0; p < parts; ++p) {
      EXPECT_EQ(graph::binary_width_vote("in memory", load, p, parts), 0);
      EXPECT_FALSE(graph::metis_vertex_lines("in memory", load, p, parts));
      slices.push_back(graph::read_edge_slice("in memory", load, p, parts));
      facts.push_back(slices.back().facts);
    }
    std::vector<graph::Edge> edges;
    std::vector<std::uint32_t> weights;
    for (graph::EdgeSlice& slice : slices) {
      graph::finish_slice(slice, facts);
      EXPECT_EQ(slice.edges.num_vertices, csr->num_vertices());
      edges.insert(edges.end(), slice.edges.edges.begin(), slice.edges.edges.end());
      const auto& w = std::get<std::vector<std::uint32_t>>(slice.edges.weights);
      weights.insert(weights.end(), w.begin(), w.end());
    }
    EXPECT_EQ(edges, whole.edges) << parts << " parts";
    EXPECT_EQ(weights, std::get<std::vector<std::uint32_t>>(whole.weights)) << parts << " parts";
  }
}

TEST(MemoryGraph, EveryEngineGivesWhatItGivesOnTheGeneratedGraph) {
  struct Case {
    const char* algorithm;
    const char* engine;
    int ranks;
    bool symmetrize;
  };
  const Case cases[] = {{"bfs", "vertex", 3, false},  {"sssp", "seq", 1, false},      {"cc", "mailbox", 2, true},
                        {"pagerank", "la", 2, false}, {"tc", "dsl", 2, false},        {"kcore", "vertex", 2, false},
                        {"sssp", "vertex", 2, false}, {"degree", "mailbox", 3, false}};
  const auto csr = generated("kron:7", true);
  for (const Case& c : cases) {
    harness::RunSpec from_file = spec_for(c.algorithm, c.engine, c.ranks);
    from_file.graph = "kron:7";
    from_file.load.weights = true;
    from_file.load.symmetrize = c.symmetrize;
    harness::RunSpec in_memory = spec_for(c.algorithm, c.engine, c.ranks);
    in_memory.graph = "in memory";
    in_memory.load.memory = csr;
    in_memory.load.symmetrize = c.symmetrize;
    const harness::RunResult expected = harness::run(builtin_registry(), from_file);
    const harness::RunResult got = harness::run(builtin_registry(), in_memory);
    const std::string where = std::string(c.algorithm) + " on " + c.engine;
    EXPECT_EQ(got.vertices, expected.vertices) << where;
    EXPECT_EQ(got.edges, expected.edges) << where;
    EXPECT_TRUE(got.passed()) << where << ": " << got.verification->mismatch;
    if (std::string(c.algorithm) == "pagerank") {
      const auto& a = std::get<std::vector<double>>(got.values);
      const auto& b = std::get<std::vector<double>>(expected.values);
      ASSERT_EQ(a.size(), b.size());
      for (std::size_t v = 0; v < a.size(); ++v) EXPECT_NEAR(a[v], b[v], 1e-9) << where << " vertex " << v;
    } else {
      EXPECT_EQ(got.values, expected.values) << where;
    }
  }
}

}  // namespace memory_graph_test
