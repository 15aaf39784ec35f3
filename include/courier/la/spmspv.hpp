#pragma once
// SpMSpV on one tile (paper 003, section 7.4): y (the tile's row segment) combines, under
// semiring S, the tile's entries times x (its column segment). x comes dense -- one value per
// column of the segment, add's identity standing for an inactive vertex -- or sparse, as (index,
// value) pairs in ascending index order (activity filtering, section 7.6). Either way only the
// tile's non-empty columns are visited.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "courier/la/tcsc.hpp"

namespace courier::la {

template <class X>
struct Sparse {
  std::uint32_t index;
  X value;
};

// The fraction of a segment's vertices below which x travels and is read as (index, value)
// pairs; at or above it, as a dense segment with placeholders (section 7.6: Graphite's 60%).
inline constexpr double kSparseBelow = 0.6;

namespace detail {
template <class S>
inline void combine_column(const Tcsc& tile, std::size_t k, typename S::X x, std::span<typename S::Y> y) {
  const auto rows = tile.rows();
  const std::uint64_t first = tile.pointers()[k], last = tile.pointers()[k + 1];
  if (S::unit_values || !tile.weighted()) {
    const typename S::Y v = S::multiply(1.0f, x);
    for (std::uint64_t e = first; e < last; ++e) y[rows[e]] = S::add(y[rows[e]], v);
  } else {
    const auto values = tile.values();
    for (std::uint64_t e = first; e < last; ++e) y[rows[e]] = S::add(y[rows[e]], S::multiply(values[e], x));
  }
}

// The first position in [at, end) whose column is >= index: a galloping search from `at`, so a
// run of lookups in ascending order costs the log of the distance moved, not of the whole range.
inline const std::uint32_t* gallop(const std::uint32_t* at, const std::uint32_t* end, std::uint32_t index) {
  std::size_t step = 1;
  const std::uint32_t* low = at;
  while (at < end && *at < index) {
    low = at + 1;
    at = static_cast<std::size_t>(end - at) > step ? at + step : end;
    step *= 2;
  }
  return std::lower_bound(low, at, index);
}
}  // namespace detail

// x dense over the tile's columns; entries equal to add's identity are skipped when that is
// cheaper than adding them (they cannot change y), and so are those equal to `skip` (a caller
// that pulls those columns instead).
// Columns [first, last) of the tile's non-empty columns only, so a caller can interleave progress.
template <class S>
void spmspv_dense(const Tcsc& tile, std::span<const typename S::X> x, std::span<typename S::Y> y, std::size_t first = 0,
                  std::size_t last = SIZE_MAX, typename S::X skip = static_cast<typename S::X>(S::identity)) {
  const auto columns = tile.columns();
  last = std::min(last, columns.size());
  for (std::size_t k = first; k < last; ++k) {
    const typename S::X v = x[columns[k]];
    if (v == static_cast<typename S::X>(S::identity) || v == skip) continue;
    detail::combine_column<S>(tile, k, v, y);
  }
}

// x sparse: ascending indices. Each is looked up among the tile's columns by galloping from where
// the last one was found, so the cost follows the smaller side, not the tile's width.
template <class S>
void spmspv_sparse(const Tcsc& tile, std::span<const Sparse<typename S::X>> x, std::span<typename S::Y> y) {
  const auto columns = tile.columns();
  const std::uint32_t* begin = columns.data();
  const std::uint32_t* end = begin + columns.size();
  const std::uint32_t* at = begin;
  for (const Sparse<typename S::X>& entry : x) {
    at = detail::gallop(at, end, entry.index);
    if (at == end) return;
    if (*at == entry.index) detail::combine_column<S>(tile, static_cast<std::size_t>(at - begin), entry.value, y);
  }
}

}  // namespace courier::la
