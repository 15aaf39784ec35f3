// Paths and grids: sizes, exactly the lattice's edges in both directions, slices that join to the
// whole, weights shared by an edge's two directions, specs and their errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <utility>

#include "courier/core/error.hpp"
#include "courier/graph/generate.hpp"

namespace generate_lattice_test {

using namespace courier::graph;

namespace {

GeneratorOptions grid(std::uint64_t rows, std::uint64_t columns, bool weights = false) {
  GeneratorOptions options;
  options.kind = Generator::grid;
  options.rows = rows;
  options.columns = columns;
  options.weights = weights;
  return options;
}

GeneratorOptions path(std::uint64_t vertices) {
  GeneratorOptions options;
  options.kind = Generator::path;
  options.columns = vertices;
  return options;
}

// The lattice's arcs, made independently: every vertex to its four (or fewer) neighbours.
std::set<std::pair<vertex_t, vertex_t>> lattice_arcs(std::uint64_t rows, std::uint64_t columns) {
  std::set<std::pair<vertex_t, vertex_t>> arcs;
  for (std::uint64_t r = 0; r < rows; ++r)
    for (std::uint64_t c = 0; c < columns; ++c) {
      const vertex_t v = r * columns + c;
      if (c + 1 < columns) arcs.insert({v, v + 1});
      if (c > 0) arcs.insert({v, v - 1});
      if (r + 1 < rows) arcs.insert({v, v + columns});
      if (r > 0) arcs.insert({v, v - columns});
    }
  return arcs;
}

}  // namespace

TEST(Lattice, GridsAndPathsHaveExactlyTheLatticesEdgesInBothDirections) {
  for (auto [rows, columns] : std::vector<std::pair<std::uint64_t, std::uint64_t>>{
           {1, 1}, {1, 2}, {1, 17}, {2, 1}, {5, 1}, {2, 2}, {3, 4}, {7, 5}, {16, 16}}) {
    SCOPED_TRACE(::testing::Message() << rows << " x " << columns);
    const GeneratorOptions options = grid(rows, columns);
    const EdgeList list = generate(options);
    EXPECT_EQ(list.num_vertices, rows * columns);
    EXPECT_EQ(generated_vertex_count(options), rows * columns);
    const std::uint64_t undirected = rows * (columns - 1) + (rows - 1) * columns;
    ASSERT_EQ(list.edges.size(), 2 * undirected);
    EXPECT_EQ(generated_edge_count(options), 2 * undirected);
    std::set<std::pair<vertex_t, vertex_t>> arcs;
    for (std::size_t i = 0; i < list.edges.size(); ++i) {
      const Edge& e = list.edges[i];
      arcs.insert({e.src, e.dst});
      if (i % 2 == 1) {
        EXPECT_EQ(e.src, list.edges[i - 1].dst);  // an edge's two directions side by side
        EXPECT_EQ(e.dst, list.edges[i - 1].src);
      }
    }
    EXPECT_EQ(arcs, lattice_arcs(rows, columns));  // each once: no duplicates, no self loops
  }
  const EdgeList p = generate(path(1000));
  EXPECT_EQ(p.num_vertices, 1000u);
  ASSERT_EQ(p.edges.size(), 2 * 999u);
  for (std::size_t i = 0; i < p.edges.size(); i += 2) {
    EXPECT_EQ(p.edges[i], (Edge{i / 2, i / 2 + 1}));
    EXPECT_EQ(p.edges[i + 1], (Edge{i / 2 + 1, i / 2}));
  }
}

TEST(Lattice, RangesAreSlicesOfTheWholeAndThreadsChangeNothing) {
  GeneratorOptions options = grid(13, 11, true);
  options.seed = 5;
  options.threads = 1;
  const EdgeList all = generate(options);
  const auto& all_weights = std::get<std::vector<std::uint32_t>>(all.weights);
  const edge_t m = all.edges.size();
  for (auto [first, last] :
       std::vector<std::pair<edge_t, edge_t>>{{0, 0}, {0, 1}, {1, 2}, {5, 77}, {m - 3, m}, {0, m}}) {
    const EdgeList slice = generate_range(options, first, last);
    EXPECT_EQ(slice.num_vertices, all.num_vertices);
    ASSERT_EQ(slice.edges.size(), last - first);
    EXPECT_TRUE(std::equal(slice.edges.begin(), slice.edges.end(), all.edges.begin() + first));
    const auto& w = std::get<std::vector<std::uint32_t>>(slice.weights);
    EXPECT_TRUE(std::equal(w.begin(), w.end(), all_weights.begin() + first));
  }
  for (unsigned threads : {2u, 3u, 0u}) {
    options.threads = threads;
    const EdgeList again = generate(options);
    EXPECT_EQ(again.edges, all.edges) << threads;
    EXPECT_EQ(std::get<std::vector<std::uint32_t>>(again.weights), all_weights) << threads;
  }
}

TEST(Lattice, BothDirectionsOfAnEdgeWeighTheSameAndSeedsChangeTheWeights) {
  const EdgeList a = generate(grid(30, 40, true));
  const auto& w = std::get<std::vector<std::uint32_t>>(a.weights);
  for (std::size_t i = 0; i < w.size(); i += 2) ASSERT_EQ(w[i], w[i + 1]) << i;
  EXPECT_EQ(*std::min_element(w.begin(), w.end()), 1u);
  EXPECT_EQ(*std::max_element(w.begin(), w.end()), 255u);
  GeneratorOptions other = grid(30, 40, true);
  other.seed = 2;
  const EdgeList b = generate(other);
  EXPECT_EQ(a.edges, b.edges);  // the seed draws only weights
  EXPECT_NE(std::get<std::vector<std::uint32_t>>(b.weights), w);
}

TEST(Lattice, SpecsRoundTripAndBadOnesSayTheRightForm) {
  GeneratorOptions options;
  ASSERT_TRUE(parse_generator_spec("path:1000000", options));
  EXPECT_EQ(options.kind, Generator::path);
  EXPECT_EQ(generated_vertex_count(options), 1000000u);
  EXPECT_EQ(generator_spec(options), "path:1000000");
  ASSERT_TRUE(parse_generator_spec("grid:1000x30:seed=4", options));
  EXPECT_EQ(options.kind, Generator::grid);
  EXPECT_EQ(options.rows, 1000u);
  EXPECT_EQ(options.columns, 30u);
  EXPECT_EQ(options.seed, 4u);
  EXPECT_EQ(generator_spec(options), "grid:1000x30:seed=4");
  for (const char* spec : {"path:", "path:0", "path:x", "path:-1", "path:10:ef=3", "grid:10", "grid:10x", "grid:x10",
                           "grid:0x5", "grid:5x0", "grid:1048576x1048577", "grid:3x3:w"}) {
    GeneratorOptions untouched;
    try {
      parse_generator_spec(spec, untouched);
      ADD_FAILURE() << spec << " was accepted";
    } catch (const courier::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("grid:RxC"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(spec), std::string::npos) << e.what();
    }
    EXPECT_EQ(untouched.kind, GeneratorOptions{}.kind) << "a failed parse changes nothing";
  }
  EXPECT_FALSE(parse_generator_spec("paths:3", options));
  EXPECT_THROW(generate(grid(0, 3)), courier::InputError);
  EXPECT_THROW(generated_edge_count(grid(std::uint64_t{1} << 21, std::uint64_t{1} << 20)), courier::InputError);
}

}  // namespace generate_lattice_test
