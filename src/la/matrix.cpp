#include "courier/la/matrix.hpp"

#include <fmt/format.h>

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

}  // namespace

Matrix::Matrix(const Grid& grid, rank_t rank, const graph::EdgeList& edges, const dist::Collective& collective)
    : grid_(grid), rank_(rank), weighted_(edges.has_weights()), tiles_(grid.threads()), out_degrees_(grid.size()) {
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
  for (unsigned m = 0; m < grid.threads(); ++m) {
    for (auto& [key, entries] : by_tile[m]) {
      nonzeros_ += entries.size();
      tiles_[m].push_back(Tile{key.first, key.second, Tcsc(std::move(entries), weighted_)});
    }
  }
  // Each segment's counts go to the rank of its leader, which sums them.
  std::vector<dist::Bytes> outgoing(static_cast<std::size_t>(grid.ranks()));
  for (unsigned j = 0; j < n; ++j) {
    if (counts[j].empty()) continue;
    dist::Bytes& out = outgoing[static_cast<std::size_t>(grid.rank_of(grid.leader(j)))];
    const std::size_t at = out.size();
    out.resize(at + sizeof(std::uint32_t) + counts[j].size() * sizeof(std::uint32_t));
    std::memcpy(out.data() + at, &j, sizeof j);
    std::memcpy(out.data() + at + sizeof j, counts[j].data(), counts[j].size() * sizeof(std::uint32_t));
  }
  for (unsigned j = 0; j < n; ++j)
    if (grid.rank_of(grid.leader(j)) == rank) out_degrees_[j].assign(grid.end(j) - grid.begin(j), 0);
  for (const dist::Bytes& in : collective.exchange(std::move(outgoing))) {
    for (std::size_t at = 0; at < in.size();) {
      unsigned j = 0;
      std::memcpy(&j, in.data() + at, sizeof j);
      at += sizeof j;
      std::vector<std::uint32_t>& degrees = out_degrees_.at(j);
      for (std::uint32_t& d : degrees) {
        std::uint32_t c = 0;
        std::memcpy(&c, in.data() + at, sizeof c);
        d += c;
        at += sizeof c;
      }
    }
  }
}

std::size_t Matrix::bytes() const {
  std::size_t total = 0;
  for (const auto& member : tiles_)
    for (const Tile& t : member) total += t.entries.bytes();
  return total;
}

}  // namespace courier::la
