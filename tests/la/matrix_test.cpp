// la::Matrix built from a .csr file's rows equals the one built from the same graph's edges: the
// same tiles, entry for entry, the same out-degrees, on every grid and in every form; and its tiles,
// gathered back, are the input graph's CSR.
#include "courier/la/matrix.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "courier/core/error.hpp"
#include "support/sanitized.hpp"
#include "support/thread_exchange.hpp"

namespace matrix_test {

namespace {

using namespace courier;
using graph::edge_t;
using graph::vertex_t;
using test_support::ThreadExchange;

// A graph with skewed degrees, duplicates (of equal weights), self loops, isolated vertices at the end, and every
// fifth row's targets in descending order (a hand-made file's may be in any order); the first
// `sources` vertices get no in-edges.
struct Graph {
  vertex_t n = 0;
  std::vector<edge_t> offsets;
  std::vector<vertex_t> targets;
  std::vector<std::uint32_t> weights;
};

Graph messy(vertex_t n, edge_t m, unsigned seed, vertex_t sources = 0) {
  std::mt19937_64 random(seed);
  std::vector<std::vector<vertex_t>> rows(n);
  for (edge_t k = 0; k < m; ++k) {
    const vertex_t u = random() % (n / 4 + 1) * (random() % 2 == 0 ? 1 : 3) % (n - 3);  // last 3 isolated
    const vertex_t v = random() % 3 == 0 ? u : random() % (n - 3);
    rows[u].push_back(v < sources ? v + sources : v);
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
      expect_same(a[x].from_sources, b[x].from_sources, tile + " from sources");
      expect_same(a[x].by_rows, b[x].by_rows, tile + " by rows");
      expect_same(a[x].sample, b[x].sample, tile + " sample");
    }
  }
  for (unsigned i = 0; i < grid.size(); ++i) {
    if (grid.rank_of(grid.leader(i)) != from_edges.rank()) continue;
    EXPECT_TRUE(std::ranges::equal(from_edges.out_degrees(i), from_rows.out_degrees(i))) << what << ", segment " << i;
    EXPECT_TRUE(std::ranges::equal(from_edges.source_weights(i), from_rows.source_weights(i))) << what << ", segment " << i;
  }
}

TEST(Matrix, FromAFilesRowsEqualsTheMatrixFromItsEdges) {
  const Graph g = messy(1000, 20000, 7, 40);
  const std::vector<la::Forms> forms{{},
                                     {.split_sinks = true, .by_rows = true, .sampled = true},
                                     {.rows_only = true},
                                     {.split_sinks = true, .rows_only = true},
                                     {.split_sinks = true, .split_sources = true, .rows_only = true}};
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

// An edge as the tiles give it back: source (the tile's column), target (its row), weight.
using Triple = std::tuple<vertex_t, vertex_t, std::uint32_t>;

// The entries of every tile `rank`'s members own, in global ids, checking on the way that each
// tile is its owner's, appears once and in row order, and holds only ids of its own segments.
// A tile kept by rows only holds its entries turned around (rows as TCSC columns).
void gather(const la::Matrix& matrix, std::vector<Triple>& out, std::vector<std::uint8_t>& seen,
            const std::string& what) {
  const la::Grid& grid = matrix.grid();
  for (unsigned m = 0; m < grid.threads(); ++m) {
    const unsigned global = grid.global(matrix.rank(), m);
    std::pair<unsigned, unsigned> last{0, 0};
    bool first = true;
    for (const la::Tile& tile : matrix.tiles(m)) {
      const std::string where = what + ", member " + std::to_string(m) + ", tile (" + std::to_string(tile.row) + ", " +
                                std::to_string(tile.column) + ")";
      ASSERT_LT(tile.row, grid.size()) << where;
      ASSERT_LT(tile.column, grid.size()) << where;
      EXPECT_EQ(grid.owner(tile.row, tile.column), global) << where << ": not this member's";
      EXPECT_EQ(seen[tile.row * grid.size() + tile.column]++, 0) << where << ": twice";
      EXPECT_TRUE(first || last < std::make_pair(tile.row, tile.column)) << where << ": out of order";
      last = {tile.row, tile.column}, first = false;
      const vertex_t rows = grid.end(tile.row) - grid.begin(tile.row);
      const vertex_t columns = grid.end(tile.column) - grid.begin(tile.column);
      for (const la::Tcsc* part : {&tile.entries, &tile.to_sinks, &tile.from_sources}) {
        const la::Tcsc& t = *part;
        for (std::size_t k = 0; k < t.nonempty_columns(); ++k)
          for (auto e = t.pointers()[k]; e < t.pointers()[k + 1]; ++e) {
            vertex_t row = t.rows()[e], column = t.columns()[k];
            if (matrix.rows_only()) std::swap(row, column);
            ASSERT_LT(row, rows) << where;
            ASSERT_LT(column, columns) << where;
            const float value = t.weighted() ? t.values()[e] : 1.0f;
            out.emplace_back(grid.begin(tile.column) + column, grid.begin(tile.row) + row,
                             static_cast<std::uint32_t>(value));
          }
      }
    }
  }
}

// The TCSC round trip: every rank's tiles, gathered back into one CSR, are the input graph's CSR
// -- every edge once, duplicates and self loops included, weights alongside -- on every grid, in
// both placements, built from edges and from a file's rows, whole or split at the sinks and the
// sources, by columns or by rows only.
TEST(Matrix, ItsTilesGatheredBackAreTheInputCsr) {
  const Graph g = messy(1001, 12000, 5, 30);  // 1001: the last segment is narrower on most grids
  std::vector<Triple> expected;
  for (vertex_t u = 0; u < g.n; ++u)
    for (edge_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) expected.emplace_back(u, g.targets[k], g.weights[k]);
  std::sort(expected.begin(), expected.end());
  const std::vector<la::Forms> forms{{},
                                     {.split_sinks = true},
                                     {.rows_only = true},
                                     {.split_sinks = true, .rows_only = true},
                                     {.split_sinks = true, .split_sources = true},
                                     {.split_sinks = true, .split_sources = true, .rows_only = true}};
  const std::vector<std::pair<rank_t, unsigned>> shapes{{1, 1}, {1, 2}, {2, 1}, {2, 2}, {3, 1}, {4, 2}};
  for (std::size_t s = 0; s < shapes.size(); ++s)
    for (const la::Placement placement : {la::Placement::staggered, la::Placement::cyclic})
      for (const bool weighted : {false, true})
        for (std::size_t f = 0; f < forms.size(); ++f)
          for (const bool from_rows : {false, true}) {
            // Under a sanitizer every form at every shape, the rest in turn (support/sanitized.hpp).
            const std::size_t turned = ((placement == la::Placement::cyclic) * 2 + weighted) * 2 + from_rows;
            if (!test_support::walks(s + f, turned, 8)) continue;
            const rank_t ranks = shapes[s].first;
            const unsigned threads = shapes[s].second;
            const la::Grid grid(ranks, threads, g.n, placement);
            const std::string what = std::to_string(ranks) + "x" + std::to_string(threads) +
                                     (placement == la::Placement::cyclic ? " cyclic" : " staggered") +
                                     (weighted ? " weighted" : "") + ", forms " + std::to_string(f) +
                                     (from_rows ? ", from rows" : ", from edges");
            std::vector<std::vector<Triple>> by_rank(static_cast<std::size_t>(ranks));
            std::vector<std::vector<std::uint8_t>> seen(static_cast<std::size_t>(ranks),
                                                        std::vector<std::uint8_t>(grid.size() * grid.size(), 0));
            ThreadExchange::run(ranks, [&](const dist::Collective& c) {
              const auto r = static_cast<std::size_t>(c.rank);
              const la::Matrix matrix =
                  from_rows ? la::Matrix(grid, c.rank, rows_of(g, 0, g.n, weighted), weighted, c, forms[f])
                            : la::Matrix(grid, c.rank, edges_of(g, grid, c.rank, weighted), c, forms[f]);
              gather(matrix, by_rank[r], seen[r], what + ", rank " + std::to_string(c.rank));
            });
            // The CSR: by source, each row's (target, weight) in order.
            std::vector<Triple> got;
            for (const auto& mine : by_rank) got.insert(got.end(), mine.begin(), mine.end());
            std::vector<Triple> want = expected;
            if (!weighted) {
              for (Triple& t : got) EXPECT_EQ(std::get<2>(t), 1u) << what << ": a weight in an unweighted tile";
              for (Triple& t : want) std::get<2>(t) = 1;
            }
            std::sort(got.begin(), got.end());
            std::sort(want.begin(), want.end());
            std::vector<edge_t> offsets(g.n + 1, 0);
            for (const Triple& t : got) ++offsets[std::get<0>(t) + 1];
            std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
            EXPECT_EQ(offsets, g.offsets) << what << ": out-degrees";
            EXPECT_EQ(got, want) << what;
            // Each of the N x N tiles is owned once, over all ranks.
            std::vector<unsigned> owned(grid.size() * grid.size(), 0);
            for (const auto& mine : seen)
              for (std::size_t x = 0; x < mine.size(); ++x) owned[x] += mine[x];
            for (std::size_t x = 0; x < owned.size(); ++x) EXPECT_LE(owned[x], 1u) << what << ", tile " << x;
          }
}

// Split at the sources: exactly the entries out of vertices with out-edges and no in-edges are kept
// apart (an entry into a sink among them), and each row's source weight, at its leader, is the sum
// of 1 / out-degree over its sources, on every grid, placement and form.
TEST(Matrix, SplitAtTheSourcesKeepsTheirEntriesApartAndWeighsThem) {
  const Graph g = messy(1001, 12000, 9, 60);
  std::vector<std::uint32_t> in(g.n, 0);
  for (const vertex_t v : g.targets) ++in[v];
  std::vector<double> expected(g.n, 0.0);
  std::uint64_t out_of_sources = 0;
  for (vertex_t u = 0; u < g.n; ++u)
    if (in[u] == 0)
      for (edge_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k)
        expected[g.targets[k]] += 1.0 / static_cast<double>(g.offsets[u + 1] - g.offsets[u]), ++out_of_sources;
  ASSERT_GT(out_of_sources, 1000u);
  for (const auto& [ranks, threads] : std::vector<std::pair<rank_t, unsigned>>{{1, 1}, {1, 2}, {2, 1}, {2, 2}, {3, 1}})
    for (const la::Placement placement : {la::Placement::staggered, la::Placement::cyclic})
      for (const bool rows_only : {false, true}) {
        const la::Grid grid(ranks, threads, g.n, placement);
        const std::string what = std::to_string(ranks) + "x" + std::to_string(threads) +
                                 (placement == la::Placement::cyclic ? " cyclic" : " staggered") +
                                 (rows_only ? " by rows" : "");
        std::vector<double> weights(g.n, -1.0);
        std::vector<std::uint64_t> apart(static_cast<std::size_t>(ranks), 0);
        ThreadExchange::run(ranks, [&](const dist::Collective& c) {
          const la::Matrix matrix(grid, c.rank, edges_of(g, grid, c.rank, false), c,
                                  {.split_sinks = true, .split_sources = true, .rows_only = rows_only});
          for (unsigned m = 0; m < grid.threads(); ++m)
            for (const la::Tile& tile : matrix.tiles(m))
              for (const la::Tcsc* part : {&tile.entries, &tile.to_sinks, &tile.from_sources}) {
                const bool sources = part == &tile.from_sources;
                for (std::size_t k = 0; k < part->nonempty_columns(); ++k)
                  for (auto e = part->pointers()[k]; e < part->pointers()[k + 1]; ++e) {
                    const vertex_t column = grid.begin(tile.column) + (rows_only ? part->rows()[e] : part->columns()[k]);
                    EXPECT_EQ(in[column] == 0, sources) << what << ": entry out of " << column;
                  }
              }
          apart[static_cast<std::size_t>(c.rank)] = matrix.source_nonzeros();
          for (unsigned i = 0; i < grid.size(); ++i) {
            if (grid.rank_of(grid.leader(i)) != c.rank) continue;
            const auto w = matrix.source_weights(i);
            for (vertex_t v = grid.begin(i); v < grid.end(i); ++v) weights[v] = w.empty() ? 0.0 : w[v - grid.begin(i)];
          }
        });
        EXPECT_EQ(std::accumulate(apart.begin(), apart.end(), std::uint64_t{0}), out_of_sources) << what;
        double off = 0;
        for (vertex_t v = 0; v < g.n; ++v) off += std::abs(weights[v] - expected[v]);
        EXPECT_LT(off, 1e-9) << what;
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

}  // namespace matrix_test
