// Paths and 2D grids: long, thin graphs whose diameter grows with their size, as road networks'
// does. Undirected edge e of a grid of R rows of C: each row holds its C - 1 edges along it, then
// (but the last row) its C edges down to the next row, 2C - 1 in all, so edge e is found in O(1)
// and any rank can make any slice alone. Arc 2e is edge e as (u, v), arc 2e + 1 as (v, u).
#include "courier/core/random.hpp"
#include "edge_generators.hpp"

namespace courier::graph::detail {

std::uint64_t lattice_rows(const GeneratorOptions& options) {
  return options.kind == Generator::path ? 1 : options.rows;
}

std::uint64_t lattice_edge_count(const GeneratorOptions& options) {
  const std::uint64_t rows = lattice_rows(options), columns = options.columns;
  return rows * (columns - 1) + (rows - 1) * columns;
}

void lattice_edges(const GeneratorOptions& options, edge_t first, std::span<Edge> out) {
  const std::uint64_t columns = options.columns, per_row = 2 * columns - 1;
  for (std::size_t k = 0; k < out.size(); ++k) {
    const std::uint64_t arc = first + k, edge = arc / 2;
    const std::uint64_t row = edge / per_row, at = edge % per_row;
    Edge e = at + 1 < columns
                 ? Edge{row * columns + at, row * columns + at + 1}                                     // along the row
                 : Edge{row * columns + at - (columns - 1), (row + 1) * columns + at - (columns - 1)};  // down
    if (arc % 2 == 1) e = {e.dst, e.src};
    out[k] = e;
  }
}

void lattice_weights(const GeneratorOptions& options, edge_t first, std::span<std::uint32_t> out) {
  const std::uint64_t key = stream_key(options.seed, kWeightStream);
  for (std::size_t k = 0; k < out.size(); ++k)
    out[k] = 1 + static_cast<std::uint32_t>(random_below(counter_random(key, (first + k) / 2), 255));
}

}  // namespace courier::graph::detail
