#include "courier/la/matrix.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <tuple>
#include <variant>

#include "courier/core/error.hpp"
#include "courier/core/parallel.hpp"

namespace courier::la {

// What building a rank's tiles gives: the tiles, and the entries per column seen here (its
// out-degree counts, before the ranks' are summed), by column group.
struct detail::Built {
  std::vector<std::vector<Tile>> tiles;  // by member, by row group then column group
  std::vector<std::vector<std::uint32_t>> counts;
};

namespace {

float weight_at(const graph::EdgeWeights& weights, std::size_t k) {
  return std::visit(
      [k](const auto& w) -> float {
        if constexpr (std::is_same_v<std::decay_t<decltype(w)>, std::monostate>)
          return 1.0f;
        else
          return static_cast<float>(w[k]);
      },
      weights);
}

// Messages of (segment id, one T per vertex of the segment) records.
template <class T>
void append_segment(dist::Bytes& out, unsigned segment, std::span<const T> values) {
  const std::size_t at = out.size();
  out.resize(at + sizeof segment + values.size_bytes());
  std::memcpy(out.data() + at, &segment, sizeof segment);
  if (!values.empty()) std::memcpy(out.data() + at + sizeof segment, values.data(), values.size_bytes());
}

// Calls each(segment, at) for every record of `in`, where `at` points at its first value; a
// record's width is that of its segment in `grid`.
template <class T, class Each>
void for_each_segment(const dist::Bytes& in, const Grid& grid, Each&& each) {
  for (std::size_t at = 0; at < in.size();) {
    unsigned segment = 0;
    std::memcpy(&segment, in.data() + at, sizeof segment);
    at += sizeof segment;
    if (segment >= grid.size()) throw Error("la matrix: a record names no segment");
    each(segment, in.data() + at);
    at += (grid.end(segment) - grid.begin(segment)) * sizeof(T);
  }
}

// The entries of `tile` among the first kSampleEntries of their column or of their row (`rows`
// wide). Of a symmetric matrix, the samples are symmetric too: (r, c) is among the first of row r
// in tile (i, j) exactly when (c, r) is among the first of column r in tile (j, i). Kept in the
// tile's order, so already in TCSC form.
Tcsc sample_of(const Tcsc& tile, std::size_t rows_wide) {
  std::vector<std::uint32_t> kept_columns, kept_rows;
  std::vector<std::uint64_t> kept_pointers{0};
  std::vector<float> kept_values;
  std::vector<std::uint8_t> seen(rows_wide, 0);  // entries met per row, columns ascending
  const auto columns = tile.columns();
  const auto pointers = tile.pointers();
  const auto rows = tile.rows();
  const auto values = tile.values();
  for (std::size_t k = 0; k < columns.size(); ++k) {
    for (std::uint64_t e = pointers[k]; e < pointers[k + 1]; ++e) {
      const bool first_of_row = seen[rows[e]] < kSampleEntries;
      if (first_of_row) ++seen[rows[e]];
      if (!first_of_row && e >= pointers[k] + kSampleEntries) continue;
      kept_rows.push_back(rows[e]);
      if (!values.empty()) kept_values.push_back(values[e]);
    }
    if (kept_rows.size() > kept_pointers.back())
      kept_columns.push_back(columns[k]), kept_pointers.push_back(kept_rows.size());
  }
  kept_columns.shrink_to_fit(), kept_pointers.shrink_to_fit(), kept_rows.shrink_to_fit(), kept_values.shrink_to_fit();
  return Tcsc(std::move(kept_columns), std::move(kept_pointers), std::move(kept_rows), std::move(kept_values));
}

// This rank's tiles, by member, built from `edges`, and the out-degree counts of the sources seen
// here, by segment. The edges are first grouped by tile in place (an American flag sort: a count
// per tile, then each edge swapped into its tile's range), then each tile is built from its own
// range, whose counters (one per row or column of the tile) stay in cache, by two counting sorts:
// by rows, then turned, which orders each column's rows (cheaper than sorting every column). Takes the
// edges over and lets them go on return, before the tiles are turned, split or sampled.
using detail::Built;

// The tiles `made` (tile (i, j) = nonempty[x]) filed by member, row group then column group, and
// their columns' entries counted.
Built gathered(const Grid& grid, const std::vector<std::pair<unsigned, unsigned>>& nonempty, std::vector<Tcsc> made) {
  Built built{std::vector<std::vector<Tile>>(grid.threads()), std::vector<std::vector<std::uint32_t>>(grid.size())};
  for (std::size_t x = 0; x < nonempty.size(); ++x) {
    const auto [i, j] = nonempty[x];
    std::vector<std::uint32_t>& counts = built.counts[j];
    if (counts.empty()) counts.assign(grid.end(j) - grid.begin(j), 0);
    const auto columns = made[x].columns();
    const auto pointers = made[x].pointers();
    for (std::size_t c = 0; c < columns.size(); ++c)
      counts[columns[c]] += static_cast<std::uint32_t>(pointers[c + 1] - pointers[c]);
    built.tiles[grid.local_of(grid.owner(i, j))].push_back(Tile{i, j, std::move(made[x]), {}, {}, {}, {}});
  }
  return built;
}

Built build_tiles(const Grid& grid, rank_t rank, graph::EdgeList edges) {
  const unsigned n = grid.size();
  const std::size_t m = edges.edges.size();
  const bool weighted = edges.has_weights();
  std::vector<float> weights(weighted ? m : 0);
  for (std::size_t k = 0; k < weights.size(); ++k) weights[k] = weight_at(edges.weights, k);
  edges.weights = std::monostate{};
  std::vector<graph::Edge>& all = edges.edges;
  const auto tile_of = [&](const graph::Edge& e) {
    return static_cast<std::size_t>(grid.segment_of(e.dst)) * n + grid.segment_of(e.src);
  };
  std::vector<std::uint64_t> start(static_cast<std::size_t>(n) * n + 1, 0);  // tile (i, j) at i * n + j
  for (const graph::Edge& e : all) {
    const unsigned i = grid.segment_of(e.dst), j = grid.segment_of(e.src);
    const unsigned owner = grid.owner(i, j);
    if (grid.rank_of(owner) != rank)
      throw Error(
          fmt::format("la matrix: edge {} -> {} belongs to rank {}, not {}", e.src, e.dst, grid.rank_of(owner), rank));
    ++start[static_cast<std::size_t>(i) * n + j + 1];
  }
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<std::uint64_t> next(start.begin(), start.end() - 1);
  for (std::size_t t = 0; t + 1 < start.size(); ++t)
    while (next[t] < start[t + 1]) {
      const std::size_t to = tile_of(all[next[t]]);
      if (to == t) {
        ++next[t];
        continue;
      }
      std::swap(all[next[t]], all[next[to]]);
      if (weighted) std::swap(weights[next[t]], weights[next[to]]);
      ++next[to];
    }
  // Each non-empty tile built alone, on the rank's threads; then each column's out-degrees counted
  // from the tiles' columns.
  std::vector<std::pair<unsigned, unsigned>> nonempty;  // (i, j)
  for (unsigned i = 0; i < n; ++i)
    for (unsigned j = 0; j < n; ++j)
      if (start[static_cast<std::size_t>(i) * n + j] != start[static_cast<std::size_t>(i) * n + j + 1])
        nonempty.emplace_back(i, j);
  std::vector<Tcsc> made(nonempty.size());
  parallel_for(nonempty.size(), std::max(1u, grid.threads()), [&](std::uint64_t a, std::uint64_t b, unsigned) {
    for (std::uint64_t x = a; x < b; ++x) {
      const auto [i, j] = nonempty[x];
      const std::size_t t = static_cast<std::size_t>(i) * n + j;
      const graph::vertex_t row0 = grid.begin(i), column0 = grid.begin(j);
      TcscBuilder by_rows(static_cast<std::uint32_t>(grid.end(i) - row0), weighted);
      for (std::uint64_t k = start[t]; k < start[t + 1]; ++k)
        by_rows.count(static_cast<std::uint32_t>(all[k].dst - row0));
      by_rows.allocate();
      for (std::uint64_t k = start[t]; k < start[t + 1]; ++k)
        by_rows.place(static_cast<std::uint32_t>(all[k].src - column0), static_cast<std::uint32_t>(all[k].dst - row0),
                      weighted ? weights[k] : 1.0f);
      made[x] = by_rows.finish().turned(true);
    }
  });
  return gathered(grid, nonempty, std::move(made));
}

// Sorts the entries [from, to) of one column of `p` by row, values alongside.
template <class Parts>
void sort_column(Parts& p, std::uint64_t from, std::uint64_t to) {
  std::vector<std::pair<std::uint32_t, float>> column;
  for (std::uint64_t e = from; e < to; ++e) column.emplace_back(p.rows[e], p.values.empty() ? 1.0f : p.values[e]);
  std::sort(column.begin(), column.end());
  for (std::uint64_t e = from; e < to; ++e) {
    p.rows[e] = column[e - from].first;
    if (!p.values.empty()) p.values[e] = column[e - from].second;
  }
}

// This rank's tiles straight from a .csr file's rows, with no edge list: row u's targets are
// column u's entries (a file's out-edges are A's columns). `file` holds at least the rows of every
// column group where this rank owns a tile. Its rows are cut into chunks of about equal edges,
// none across a column group, and each chunk is read twice on the rank's threads: once to count
// its entries and non-empty columns per tile, once to place them where those counts put them, so
// every tile is allocated once, at its size. A row's entries of one tile are placed together, so
// each column is contiguous even where a row is not sorted, and such a column is sorted on the spot
// (a .csr's rows are sorted; a hand-made file's may not be). Each chunk's pages go once it is read.
Built build_tiles(const Grid& grid, rank_t rank, const graph::CsrRows& file, bool weighted) {
  const unsigned n = grid.size(), threads = std::max(1u, grid.threads());
  std::vector<std::uint8_t> owned(static_cast<std::size_t>(n) * n);  // [j * n + i]: tile (i, j) is here
  for (unsigned i = 0; i < n; ++i)
    for (unsigned j = 0; j < n; ++j)
      owned[static_cast<std::size_t>(j) * n + i] = grid.rank_of(grid.owner(i, j)) == rank;
  const graph::vertex_t first = file.first, last = first + file.rows();
  const graph::edge_t base = file.edge_begin();
  const auto edge_of = [&](graph::vertex_t u) { return file.offsets[u - first] - base; };  // row u's first

  struct Chunk {
    unsigned j;
    graph::vertex_t from, to;  // rows, global ids
  };
  std::vector<Chunk> chunks;
  const graph::edge_t share = std::max<graph::edge_t>(1, file.edges() / (4 * threads));
  for (unsigned j = 0; j < n; ++j) {
    const auto column = std::span(owned).subspan(static_cast<std::size_t>(j) * n, n);
    if (std::find(column.begin(), column.end(), 1) == column.end()) continue;
    const graph::vertex_t a = grid.begin(j), b = grid.end(j);
    if (a < first || b > last)
      throw Error(
          fmt::format("la matrix: rows {}..{} do not hold column group {} (vertices {}..{})", first, last, j, a, b));
    for (graph::vertex_t u = a; u < b;) {
      const auto past = std::lower_bound(file.offsets.begin() + (u - first) + 1, file.offsets.begin() + (b - first),
                                         file.offsets[u - first] + share);
      const graph::vertex_t v = first + static_cast<graph::vertex_t>(past - file.offsets.begin());
      chunks.push_back({j, u, v});
      u = v;
    }
  }

  // Per chunk and row group: entries and non-empty columns, then where the chunk's go in its tiles.
  std::vector<std::uint64_t> entries(chunks.size() * n, 0), columns(chunks.size() * n, 0);
  // Calls entry(u, i, target, k) for each edge k = u -> target of chunk c into a tile of this rank
  // (row group i), and done(u) after each row.
  const auto visit = [&](const Chunk& c, auto&& entry, auto&& done) {
    const std::uint8_t* mine = owned.data() + static_cast<std::size_t>(c.j) * n;
    for (graph::vertex_t u = c.from; u < c.to; ++u) {
      for (graph::edge_t k = edge_of(u); k < edge_of(u + 1); ++k) {
        const graph::vertex_t target = file.targets[k];
        if (target >= grid.vertices())
          throw Error(fmt::format("la matrix: edge {} -> {} outside {} vertices", u, target, grid.vertices()));
        const unsigned i = grid.segment_of(target);
        if (mine[i]) entry(u, i, target, k);
      }
      done(u);
    }
    file.release(edge_of(c.from), edge_of(c.to));
  };
  parallel_for(chunks.size(), threads, [&](std::uint64_t a, std::uint64_t b, unsigned) {
    std::vector<graph::vertex_t> seen(n, graph::kNoVertex);  // the last row with an entry in row group i
    for (std::uint64_t x = a; x < b; ++x) {
      std::uint64_t* e = entries.data() + x * n;
      std::uint64_t* c = columns.data() + x * n;
      visit(
          chunks[x],
          [&](graph::vertex_t u, unsigned i, graph::vertex_t, graph::edge_t) {
            ++e[i];
            if (seen[i] != u) seen[i] = u, ++c[i];
          },
          [](graph::vertex_t) {});
    }
  });

  struct Parts {
    std::vector<std::uint32_t> columns, rows;
    std::vector<std::uint64_t> pointers;
    std::vector<float> values;
  };
  std::vector<std::pair<unsigned, unsigned>> nonempty;                // (i, j), by row group then column group
  std::vector<std::size_t> tile_at(static_cast<std::size_t>(n) * n);  // [j * n + i]: its place in nonempty
  std::vector<std::uint64_t> total_entries(static_cast<std::size_t>(n) * n, 0), total_columns(total_entries.size(), 0);
  for (std::size_t x = 0; x < chunks.size(); ++x)
    for (unsigned i = 0; i < n; ++i) {
      const std::size_t t = static_cast<std::size_t>(chunks[x].j) * n + i;
      // From here on: where chunk x's entries and columns start in tile (i, j).
      std::swap(entries[x * n + i], total_entries[t]);
      total_entries[t] += entries[x * n + i];
      std::swap(columns[x * n + i], total_columns[t]);
      total_columns[t] += columns[x * n + i];
    }
  for (unsigned i = 0; i < n; ++i)
    for (unsigned j = 0; j < n; ++j)
      if (total_entries[static_cast<std::size_t>(j) * n + i] > 0)
        tile_at[static_cast<std::size_t>(j) * n + i] = nonempty.size(), nonempty.emplace_back(i, j);
  std::vector<Parts> parts(nonempty.size());
  parallel_for(parts.size(), threads, [&](std::uint64_t a, std::uint64_t b, unsigned) {
    for (std::uint64_t x = a; x < b; ++x) {
      const std::size_t t = static_cast<std::size_t>(nonempty[x].second) * n + nonempty[x].first;
      parts[x].columns.resize(total_columns[t]);
      parts[x].pointers.resize(total_columns[t] + 1);
      parts[x].rows.resize(total_entries[t]);
      if (weighted) parts[x].values.resize(total_entries[t]);
      parts[x].pointers.back() = total_entries[t];
    }
  });

  std::visit(
      [&](const auto& w) {
        using W = std::decay_t<decltype(w)>;
        parallel_for(chunks.size(), threads, [&](std::uint64_t a, std::uint64_t b, unsigned) {
          std::vector<graph::vertex_t> seen(n, graph::kNoVertex);
          for (std::uint64_t x = a; x < b; ++x) {
            const Chunk& c = chunks[x];
            std::uint64_t* entry_at = entries.data() + x * n;
            std::uint64_t* column_at = columns.data() + x * n;
            const std::size_t* tile = tile_at.data() + static_cast<std::size_t>(c.j) * n;
            graph::vertex_t previous = 0;
            bool sorted = true;
            visit(
                c,
                [&](graph::vertex_t u, unsigned i, graph::vertex_t target, graph::edge_t k) {
                  Parts& p = parts[tile[i]];
                  if (seen[i] != u) {
                    seen[i] = u;
                    p.columns[column_at[i]] = static_cast<std::uint32_t>(u - grid.begin(c.j));
                    p.pointers[column_at[i]++] = entry_at[i];
                  }
                  sorted &= target >= previous;
                  previous = target;
                  p.rows[entry_at[i]] = static_cast<std::uint32_t>(target - grid.begin(i));
                  if constexpr (!std::is_same_v<W, std::monostate>)
                    if (weighted) p.values[entry_at[i]] = static_cast<float>(w[k]);
                  ++entry_at[i];
                },
                [&](graph::vertex_t u) {
                  if (!sorted)
                    for (unsigned i = 0; i < n; ++i)
                      if (seen[i] == u)
                        sort_column(parts[tile[i]], parts[tile[i]].pointers[column_at[i] - 1], entry_at[i]);
                  previous = 0;
                  sorted = true;
                });
          }
        });
      },
      file.weights);
  std::vector<Tcsc> made(parts.size());
  for (std::size_t x = 0; x < parts.size(); ++x)
    made[x] = Tcsc(std::move(parts[x].columns), std::move(parts[x].pointers), std::move(parts[x].rows),
                   std::move(parts[x].values));
  return gathered(grid, nonempty, std::move(made));
}

}  // namespace

Matrix::Matrix(const Grid& grid, rank_t rank, graph::EdgeList edges, const dist::Collective& collective, Forms forms)
    : grid_(grid), rank_(rank), weighted_(edges.has_weights()), forms_(forms), out_degrees_(grid.size()) {
  finish(build_tiles(grid, rank, std::move(edges)), collective);
}

Matrix::Matrix(const Grid& grid, rank_t rank, const graph::CsrRows& file, bool weighted,
               const dist::Collective& collective, Forms forms)
    : grid_(grid),
      rank_(rank),
      weighted_(weighted && !std::holds_alternative<std::monostate>(file.weights)),
      forms_(forms),
      out_degrees_(grid.size()) {
  finish(build_tiles(grid, rank, file, weighted_), collective);
}

void Matrix::finish(Built built, const dist::Collective& collective) {
  const Grid& grid = grid_;
  const rank_t rank = rank_;
  const unsigned n = grid.size();
  tiles_ = std::move(built.tiles);
  std::vector<std::vector<std::uint32_t>>& counts = built.counts;
  // Each segment's counts go to the rank of its leader, which sums them.
  std::vector<dist::Bytes> outgoing(static_cast<std::size_t>(grid.ranks()));
  for (unsigned j = 0; j < n; ++j)
    if (!counts[j].empty())
      append_segment(outgoing[static_cast<std::size_t>(grid.rank_of(grid.leader(j)))], j,
                     std::span<const std::uint32_t>(counts[j]));
  counts = {};
  for (unsigned j = 0; j < n; ++j)
    if (grid.rank_of(grid.leader(j)) == rank) out_degrees_[j].assign(grid.end(j) - grid.begin(j), 0);
  for (const dist::Bytes& in : collective.exchange(std::move(outgoing)))
    for_each_segment<std::uint32_t>(in, grid, [&](unsigned j, const std::byte* at) {
      for (std::uint32_t& d : out_degrees_.at(j)) {
        std::uint32_t c = 0;
        std::memcpy(&c, at, sizeof c);
        d += c;
        at += sizeof c;
      }
    });
  // Split: the leader of each segment tells the owners of its row group which of its vertices are
  // without out-edges.
  std::vector<std::vector<std::uint8_t>> sinks(n);  // by row group, where this rank owns tiles
  if (forms_.split_sinks) {
    std::vector<dist::Bytes> flags(static_cast<std::size_t>(grid.ranks()));
    for (unsigned i = 0; i < n; ++i) {
      if (out_degrees_[i].empty()) continue;
      std::vector<std::uint8_t> sink(out_degrees_[i].size());
      for (std::size_t v = 0; v < sink.size(); ++v) sink[v] = out_degrees_[i][v] == 0;
      std::vector<bool> told(flags.size(), false);
      for (unsigned j = 0; j < n; ++j) {
        const auto r = static_cast<std::size_t>(grid.rank_of(grid.owner(i, j)));
        if (!told[r]) append_segment(flags[r], i, std::span<const std::uint8_t>(sink));
        told[r] = true;
      }
    }
    for (const dist::Bytes& in : collective.exchange(std::move(flags)))
      for_each_segment<std::uint8_t>(in, grid, [&](unsigned i, const std::byte* at) {
        sinks[i].resize(grid.end(i) - grid.begin(i));
        std::memcpy(sinks[i].data(), at, sinks[i].size());
      });
  }
  // Split at the sources: each column group's sources, as flags where this rank owns its tiles.
  std::vector<std::vector<double>> inverse;
  std::vector<std::vector<std::uint8_t>> source(n);
  if (forms_.split_sources) {
    inverse = sources(collective);
    for (unsigned j = 0; j < n; ++j)
      for (double d : inverse[j]) source[j].push_back(d != 0);
  }
  // Each tile's other forms are its own: made on the rank's threads, each thread a share of the tiles.
  std::vector<Tile*> mine;
  for (std::vector<Tile>& member : tiles_)
    for (Tile& tile : member) mine.push_back(&tile), nonzeros_ += tile.entries.nonzeros();
  parallel_for(mine.size(), std::max(1u, grid.threads()), [&](std::uint64_t a, std::uint64_t b, unsigned) {
    for (std::uint64_t k = a; k < b; ++k) {
      Tile& tile = *mine[k];
      if (forms_.by_rows) tile.by_rows = tile.entries.turned(false);  // a pull reads no values
      if (forms_.split_sources)
        std::tie(tile.entries, tile.from_sources) = tile.entries.split_columns(source.at(tile.column));
      if (forms_.split_sinks) std::tie(tile.entries, tile.to_sinks) = tile.entries.split(sinks.at(tile.row));
      if (forms_.sampled) tile.sample = sample_of(tile.entries, grid.end(tile.row) - grid.begin(tile.row));
      if (forms_.rows_only) {
        tile.entries = tile.entries.turned(true);
        tile.to_sinks = tile.to_sinks.turned(true);
        tile.from_sources = tile.from_sources.turned(true);
      }
    }
  });
  source_weights_.assign(n, {});
  if (forms_.split_sources) weigh_sources(inverse, collective);
}

std::vector<std::vector<double>> Matrix::sources(const dist::Collective& collective) const {
  const Grid& grid = grid_;
  const unsigned n = grid.size();
  // In-degrees: each rank counts its tiles' rows and sends the counts to the row group's leader.
  std::vector<std::vector<std::uint32_t>> counts(n);
  for (const std::vector<Tile>& member : tiles_)
    for (const Tile& tile : member) {
      std::vector<std::uint32_t>& c = counts[tile.row];
      if (c.empty()) c.assign(grid.end(tile.row) - grid.begin(tile.row), 0);
      for (std::uint32_t r : tile.entries.rows()) ++c[r];
    }
  std::vector<dist::Bytes> outgoing(static_cast<std::size_t>(grid.ranks()));
  for (unsigned i = 0; i < n; ++i)
    if (!counts[i].empty())
      append_segment(outgoing[static_cast<std::size_t>(grid.rank_of(grid.leader(i)))], i,
                     std::span<const std::uint32_t>(counts[i]));
  std::vector<std::vector<std::uint32_t>> in_degrees(n);
  for (unsigned i = 0; i < n; ++i)
    if (!out_degrees_[i].empty()) in_degrees[i].assign(out_degrees_[i].size(), 0);
  for (const dist::Bytes& in : collective.exchange(std::move(outgoing)))
    for_each_segment<std::uint32_t>(in, grid, [&](unsigned i, const std::byte* at) {
      for (std::uint32_t& d : in_degrees.at(i)) {
        std::uint32_t c = 0;
        std::memcpy(&c, at, sizeof c);
        d += c;
        at += sizeof c;
      }
    });
  // The leader of each segment tells the owners of its column group which of its vertices are sources.
  std::vector<dist::Bytes> flags(static_cast<std::size_t>(grid.ranks()));
  for (unsigned j = 0; j < n; ++j) {
    if (out_degrees_[j].empty()) continue;
    std::vector<double> inverse(out_degrees_[j].size(), 0.0);
    for (std::size_t v = 0; v < inverse.size(); ++v)
      if (out_degrees_[j][v] != 0 && in_degrees[j][v] == 0) inverse[v] = 1.0 / out_degrees_[j][v];
    std::vector<bool> told(flags.size(), false);
    for (unsigned i = 0; i < n; ++i) {
      const auto r = static_cast<std::size_t>(grid.rank_of(grid.owner(i, j)));
      if (!told[r]) append_segment(flags[r], j, std::span<const double>(inverse));
      told[r] = true;
    }
  }
  std::vector<std::vector<double>> inverse(n);
  for (const dist::Bytes& in : collective.exchange(std::move(flags)))
    for_each_segment<double>(in, grid, [&](unsigned j, const std::byte* at) {
      inverse[j].resize(grid.end(j) - grid.begin(j));
      std::memcpy(inverse[j].data(), at, inverse[j].size() * sizeof(double));
    });
  return inverse;
}

void Matrix::weigh_sources(const std::vector<std::vector<double>>& inverse, const dist::Collective& collective) {
  const Grid& grid = grid_;
  const unsigned n = grid.size();
  // Each rank's partial weights by row group, from its tiles' entries out of sources (turned, when
  // kept by rows only: a turned tile's columns are rows).
  std::vector<std::vector<double>> partial(n);
  for (const std::vector<Tile>& member : tiles_)
    for (const Tile& tile : member) {
      const Tcsc& t = tile.from_sources;
      if (t.nonzeros() == 0) continue;
      source_nonzeros_ += t.nonzeros();
      std::vector<double>& w = partial[tile.row];
      if (w.empty()) w.assign(grid.end(tile.row) - grid.begin(tile.row), 0.0);
      const std::vector<double>& of = inverse.at(tile.column);
      const auto columns = t.columns();
      const auto pointers = t.pointers();
      const auto rows = t.rows();
      for (std::size_t k = 0; k < columns.size(); ++k)
        for (std::uint64_t e = pointers[k]; e < pointers[k + 1]; ++e) {
          if (forms_.rows_only)
            w[columns[k]] += of[rows[e]];
          else
            w[rows[e]] += of[columns[k]];
        }
    }
  std::vector<dist::Bytes> outgoing(static_cast<std::size_t>(grid.ranks()));
  for (unsigned i = 0; i < n; ++i)
    if (!partial[i].empty())
      append_segment(outgoing[static_cast<std::size_t>(grid.rank_of(grid.leader(i)))], i,
                     std::span<const double>(partial[i]));
  for (const dist::Bytes& in : collective.exchange(std::move(outgoing)))
    for_each_segment<double>(in, grid, [&](unsigned i, const std::byte* at) {
      if (out_degrees_.at(i).empty()) throw Error("la matrix: source weights for a segment not led here");
      std::vector<double>& w = source_weights_[i];
      if (w.empty()) w.assign(grid.end(i) - grid.begin(i), 0.0);
      for (double& d : w) {
        double c = 0;
        std::memcpy(&c, at, sizeof c);
        d += c;
        at += sizeof c;
      }
    });
}

std::size_t Matrix::bytes() const {
  std::size_t total = 0;
  for (const auto& member : tiles_)
    for (const Tile& t : member)
      total += t.entries.bytes() + t.to_sinks.bytes() + t.from_sources.bytes() + t.by_rows.bytes() + t.sample.bytes();
  for (const auto& w : source_weights_) total += w.capacity() * sizeof(double);
  return total;
}

}  // namespace courier::la
