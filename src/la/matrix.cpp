#include "courier/la/matrix.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <variant>

#include "courier/core/error.hpp"

namespace courier::la {

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
// in tile (i, j) exactly when (c, r) is among the first of column r in tile (j, i).
Tcsc sample_of(const Tcsc& tile, std::size_t rows_wide) {
  std::vector<Entry> kept;
  std::vector<std::uint8_t> seen(rows_wide, 0);  // entries met per row, columns ascending
  const auto columns = tile.columns();
  const auto pointers = tile.pointers();
  const auto rows = tile.rows();
  const auto values = tile.values();
  for (std::size_t k = 0; k < columns.size(); ++k)
    for (std::uint64_t e = pointers[k]; e < pointers[k + 1]; ++e) {
      const bool first_of_row = seen[rows[e]] < kSampleEntries;
      if (first_of_row) ++seen[rows[e]];
      if (first_of_row || e < pointers[k] + kSampleEntries)
        kept.push_back(Entry{rows[e], columns[k], values.empty() ? 1.0f : values[e]});
    }
  return Tcsc(std::move(kept), tile.weighted());
}

}  // namespace

Matrix::Matrix(const Grid& grid, rank_t rank, const graph::EdgeList& edges, const dist::Collective& collective,
               bool split_sinks, bool by_rows, bool sampled)
    : grid_(grid),
      rank_(rank),
      weighted_(edges.has_weights()),
      split_(split_sinks),
      by_rows_(by_rows),
      sampled_(sampled),
      tiles_(grid.threads()),
      out_degrees_(grid.size()) {
  const unsigned n = grid.size();
  // Entries by (member, row group, column group); out-degree counts of the sources seen here.
  std::vector<std::map<std::pair<unsigned, unsigned>, std::vector<Entry>>> by_tile(grid.threads());
  std::vector<std::vector<std::uint32_t>> counts(n);
  for (std::size_t k = 0; k < edges.edges.size(); ++k) {
    const graph::Edge& e = edges.edges[k];
    const unsigned i = grid.segment_of(e.dst), j = grid.segment_of(e.src);
    const unsigned owner = grid.owner(i, j);
    if (grid.rank_of(owner) != rank)
      throw Error(
          fmt::format("la matrix: edge {} -> {} belongs to rank {}, not {}", e.src, e.dst, grid.rank_of(owner), rank));
    by_tile[grid.local_of(owner)][{i, j}].push_back(Entry{static_cast<std::uint32_t>(e.dst - grid.begin(i)),
                                                          static_cast<std::uint32_t>(e.src - grid.begin(j)),
                                                          weight_at(edges.weights, k)});
    if (counts[j].empty()) counts[j].assign(grid.end(j) - grid.begin(j), 0);
    ++counts[j][e.src - grid.begin(j)];
  }
  // Each segment's counts go to the rank of its leader, which sums them.
  std::vector<dist::Bytes> outgoing(static_cast<std::size_t>(grid.ranks()));
  for (unsigned j = 0; j < n; ++j)
    if (!counts[j].empty())
      append_segment(outgoing[static_cast<std::size_t>(grid.rank_of(grid.leader(j)))], j,
                     std::span<const std::uint32_t>(counts[j]));
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
  if (split_) {
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
  for (unsigned m = 0; m < grid.threads(); ++m) {
    for (auto& [key, entries] : by_tile[m]) {
      nonzeros_ += entries.size();
      Tcsc turned;
      if (by_rows) {
        std::vector<Entry> around(entries);
        for (Entry& e : around) std::swap(e.row, e.column);
        turned = Tcsc(std::move(around), false);  // a pull reads no values
      }
      std::vector<Entry> to_sinks;
      if (split_) {
        const std::vector<std::uint8_t>& sink = sinks.at(key.first);
        const auto cut =
            std::stable_partition(entries.begin(), entries.end(), [&](const Entry& e) { return sink.at(e.row) == 0; });
        to_sinks.assign(cut, entries.end());
        entries.erase(cut, entries.end());
      }
      tiles_[m].push_back(Tile{key.first,
                               key.second,
                               Tcsc(std::move(entries), weighted_),
                               Tcsc(std::move(to_sinks), weighted_),
                               std::move(turned),
                               {}});
      if (sampled)
        tiles_[m].back().sample = sample_of(tiles_[m].back().entries, grid.end(key.first) - grid.begin(key.first));
    }
  }
}

std::size_t Matrix::bytes() const {
  std::size_t total = 0;
  for (const auto& member : tiles_)
    for (const Tile& t : member) total += t.entries.bytes() + t.to_sinks.bytes() + t.by_rows.bytes() + t.sample.bytes();
  return total;
}

}  // namespace courier::la
