// la::Matrix built from a .csr file's rows equals the one built from the same graph's edges: the
// same tiles, entry for entry, the same out-degrees, on every grid and in every form.
#include "courier/la/matrix.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <variant>
#include <vector>

#include "courier/core/error.hpp"
#include "support/thread_exchange.hpp"

namespace {

using namespace courier;
using graph::edge_t;
using graph::vertex_t;
using test_support::ThreadExchange;

// A graph with skewed degrees, duplicates (of equal weights), self loops, isolated vertices at the end, and every
// fifth row's targets in descending order (a hand-made file's may be in any order).
struct Graph {
  vertex_t n = 0;
  std::vector<edge_t> offsets;
  std::vector<vertex_t> targets;
  std::vector<std::uint32_t> weights;
};

Graph messy(vertex_t n, edge_t m, unsigned seed) {
  std::mt19937_64 random(seed);
  std::vector<std::vector<vertex_t>> rows(n);
  for (edge_t k = 0; k < m; ++k) {
    const vertex_t u = random() % (n / 4 + 1) * (random() % 2 == 0 ? 1 : 3) % (n - 3);  // last 3 isolated
    rows[u].push_back(random() % 3 == 0 ? u : random() % (n - 3));
  }
  Graph g{n, {0}, {}, {}};
  for (vertex_t u = 0; u < n; ++u) {
    std::sort(rows[u].begin(), rows[u].end());
    if (u % 5 == 0) std::reverse(rows[u].begin(), rows[u].end());
    g.targets.insert(g.targets.end(), rows[u].begin(), rows[u].end());
    g.offsets.push_back(g.targets.size());
  }
  // A duplicate's weight is its twin's: the order of equal entries is then not in question.
  for (vertex_t u = 0; u < n; ++u)
    for (edge_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k)
      g.weights.push_back(static_cast<std::uint32_t>((u * 31 + g.targets[k]) % 100));
  return g;
}

// Rows [first, last) of g as a reader borrows them: the file's offsets, the part's targets.
graph::CsrRows rows_of(const Graph& g, vertex_t first, vertex_t last, bool weighted) {
  graph::CsrRows rows;
  rows.first = first;
  rows.offsets = Buffer<edge_t>(std::vector<edge_t>(g.offsets.begin() + first, g.offsets.begin() + last + 1));
  const auto a = static_cast<std::ptrdiff_t>(g.offsets[first]), b = static_cast<std::ptrdiff_t>(g.offsets[last]);
  rows.targets = Buffer<vertex_t>(std::vector<vertex_t>(g.targets.begin() + a, g.targets.begin() + b));
  if (weighted)
    rows.weights = Buffer<std::uint32_t>(std::vector<std::uint32_t>(g.weights.begin() + a, g.weights.begin() + b));
  return rows;
}

// The edges of g whose tiles `rank` owns.
graph::EdgeList edges_of(const Graph& g, const la::Grid& grid, rank_t rank, bool weighted) {
  graph::EdgeList list;
  list.num_vertices = g.n;
  std::vector<std::uint32_t> weights;
  for (vertex_t u = 0; u < g.n; ++u)
    for (edge_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
      const vertex_t v = g.targets[k];
      if (grid.rank_of(grid.owner(grid.segment_of(v), grid.segment_of(u))) != rank) continue;
      list.edges.push_back({u, v});
      weights.push_back(g.weights[k]);
    }
  if (weighted) list.weights = std::move(weights);
  return list;
}

void expect_same(const la::Tcsc& a, const la::Tcsc& b, const std::string& what) {
  EXPECT_TRUE(std::ranges::equal(a.columns(), b.columns())) << what << ": columns";
  EXPECT_TRUE(std::ranges::equal(a.pointers(), b.pointers())) << what << ": pointers";
  EXPECT_TRUE(std::ranges::equal(a.rows(), b.rows())) << what << ": rows";
  EXPECT_TRUE(std::ranges::equal(a.values(), b.values())) << what << ": values";
}

void expect_same(const la::Matrix& from_edges, const la::Matrix& from_rows, const std::string& what) {
  const la::Grid& grid = from_edges.grid();
  EXPECT_EQ(from_edges.nonzeros(), from_rows.nonzeros()) << what;
  EXPECT_EQ(from_edges.bytes(), from_rows.bytes()) << what;
  for (unsigned m = 0; m < grid.threads(); ++m) {
    const auto a = from_edges.tiles(m), b = from_rows.tiles(m);
    ASSERT_EQ(a.size(), b.size()) << what << ", member " << m;
    for (std::size_t x = 0; x < a.size(); ++x) {
      const std::string tile = what + ", tile (" + std::to_string(a[x].row) + ", " + std::to_string(a[x].column) + ")";
      ASSERT_EQ(a[x].row, b[x].row) << tile;
      ASSERT_EQ(a[x].column, b[x].column) << tile;
      expect_same(a[x].entries, b[x].entries, tile + " entries");
      expect_same(a[x].to_sinks, b[x].to_sinks, tile + " to sinks");
      expect_same(a[x].by_rows, b[x].by_rows, tile + " by rows");
      expect_same(a[x].sample, b[x].sample, tile + " sample");
    }
  }
  for (unsigned i = 0; i < grid.size(); ++i) {
    if (grid.rank_of(grid.leader(i)) != from_edges.rank()) continue;
    EXPECT_TRUE(std::ranges::equal(from_edges.out_degrees(i), from_rows.out_degrees(i))) << what << ", segment " << i;
  }
}

TEST(Matrix, FromAFilesRowsEqualsTheMatrixFromItsEdges) {
  const Graph g = messy(1000, 20000, 7);
  const std::vector<la::Forms> forms{{},
                                     {.split_sinks = true, .by_rows = true, .sampled = true},
                                     {.rows_only = true},
                                     {.split_sinks = true, .rows_only = true}};
  for (const auto& shape : std::vector<std::pair<rank_t, unsigned>>{{1, 1}, {1, 2}, {2, 1}, {2, 2}, {3, 1}, {4, 2}}) {
    const rank_t ranks = shape.first;
    const unsigned threads = shape.second;
    for (const la::Placement placement : {la::Placement::staggered, la::Placement::cyclic})
      for (const bool weighted : {false, true})
        for (std::size_t f = 0; f < forms.size(); ++f)
          ThreadExchange::run(ranks, [&](const dist::Collective& c) {
            const la::Grid grid(ranks, threads, g.n, placement);
            const std::string what = std::to_string(ranks) + "x" + std::to_string(threads) +
                                     (placement == la::Placement::cyclic ? " cyclic" : " staggered") +
                                     (weighted ? " weighted" : "") + ", forms " + std::to_string(f) + ", rank " +
                                     std::to_string(c.rank);
            const la::Matrix from_edges(grid, c.rank, edges_of(g, grid, c.rank, weighted), c, forms[f]);
            // Every row, and only those of the column groups this rank has tiles in.
            vertex_t first = g.n, last = 0;
            for (unsigned i = 0; i < grid.size(); ++i)
              for (unsigned j = 0; j < grid.size(); ++j)
                if (grid.rank_of(grid.owner(i, j)) == c.rank)
                  first = std::min(first, grid.begin(j)), last = std::max(last, grid.end(j));
            const la::Matrix whole(grid, c.rank, rows_of(g, 0, g.n, weighted), weighted, c, forms[f]);
            const la::Matrix hull(grid, c.rank, rows_of(g, first, last, weighted), weighted, c, forms[f]);
            expect_same(from_edges, whole, what + ", every row");
            expect_same(from_edges, hull, what + ", its column groups' rows");
            if (!weighted) {  // weights asked of a file without any: every value is 1
              const la::Matrix asked(grid, c.rank, rows_of(g, 0, g.n, false), true, c, forms[f]);
              EXPECT_FALSE(asked.weighted()) << what;
              expect_same(from_edges, asked, what + ", weights asked of a file without");
            }
          });
  }
}

// Rows that do not hold a column group the rank has tiles in are an error naming them.
TEST(Matrix, FromRowsMissingAColumnGroupIsAnError) {
  const Graph g = messy(100, 1000, 3);
  const la::Grid grid(1, 2, g.n);
  ThreadExchange::run(1, [&](const dist::Collective& c) {
    try {
      const la::Matrix m(grid, 0, rows_of(g, 0, 60, false), false, c);
      ADD_FAILURE() << "rows 0..60 of 100 built a matrix";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("rows 0..60 do not hold column group 1"), std::string::npos) << e.what();
    }
  });
}

}  // namespace
