#pragma once
// Pulling: the other direction of a product (Beamer's bottom-up step; GraphBLAS's masked pull
// SpMV with early exit). A program whose active x values of an iteration are all equal -- bfs:
// every frontier vertex offers the same level -- needs, for a row, only whether any of its
// columns is active, so a row is scanned until the first active column and rows already settled
// (the mask) are not scanned at all. It reads the tile by rows: `by_rows` is the tile turned
// around (a Tcsc whose "columns" are the tile's non-empty rows and whose "rows" their columns),
// and x as a bitset of active columns, so a probe reads one bit, not one value.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "courier/la/tcsc.hpp"

namespace courier::la {

// Which way a program that can pull runs a tile: automatic (the model's cost rule), or always one.
enum class Direction { automatic, push, pull };

// The weight of a pulled edge against a pushed one in the automatic rule: a pull stops at a row's
// first active column and reads a bit, so it checks far fewer edges than it could (Beamer's
// alpha, 15 in GAP's bfs).
inline constexpr double kPullAlpha = 15;

// A plain bitset over a segment (one writer; readers after it is done).
class Bits {
 public:
  void assign(std::size_t size) { words_.assign((size + 63) / 64, 0); }
  bool test(std::size_t i) const { return (words_[i >> 6] >> (i & 63)) & 1u; }
  void set(std::size_t i) { words_[i >> 6] |= std::uint64_t{1} << (i & 63); }
  void reset(std::size_t i) { words_[i >> 6] &= ~(std::uint64_t{1} << (i & 63)); }
  bool empty() const { return words_.empty(); }

 private:
  std::vector<std::uint64_t> words_;
};

// For rows [first, last) of `by_rows`'s non-empty rows: a row not in `settled` (if given) whose y
// `value` would still change combines `value` if any of its columns is in `frontier`. For
// semirings whose add is idempotent (min, or): one active column is as good as all of them.
// Returns the rows found.
template <class S>
std::size_t pull_any(const Tcsc& by_rows, const Bits& frontier, typename S::X value, const Bits* settled,
                     std::span<typename S::Y> y, std::size_t first = 0, std::size_t last = SIZE_MAX) {
  const auto rows = by_rows.columns();
  const auto pointers = by_rows.pointers();
  const auto columns = by_rows.rows();
  const typename S::Y found_value = S::multiply(1.0f, value);
  last = std::min(last, rows.size());
  std::size_t found = 0;
  for (std::size_t k = first; k < last; ++k) {
    const std::uint32_t row = rows[k];
    if ((settled != nullptr && settled->test(row)) || S::add(y[row], found_value) == y[row]) continue;
    for (std::uint64_t e = pointers[k], end = pointers[k + 1]; e < end; ++e) {
      if (!frontier.test(columns[e])) continue;
      y[row] = S::add(y[row], found_value);
      ++found;
      break;
    }
  }
  return found;
}

namespace detail {
template <class S, bool kUnit>
void pull_sum_rows(const Tcsc& by_rows, const typename S::X* x, typename S::Y* y, std::size_t first, std::size_t last) {
  using Y = typename S::Y;
  const std::uint32_t* rows = by_rows.columns().data();
  const std::uint64_t* pointers = by_rows.pointers().data();
  const std::uint32_t* columns = by_rows.rows().data();
  const float* values = by_rows.values().data();
  const auto term = [&](std::uint64_t at) { return S::multiply(kUnit ? 1.0f : values[at], x[columns[at]]); };
  for (std::size_t k = first; k < last; ++k) {
    std::uint64_t e = pointers[k];
    const std::uint64_t end = pointers[k + 1];
    Y sum[4] = {S::identity, S::identity, S::identity, S::identity};
    for (; e + 4 <= end; e += 4)
      for (unsigned lane = 0; lane < 4; ++lane) sum[lane] = S::add(sum[lane], term(e + lane));
    for (; e < end; ++e) sum[0] = S::add(sum[0], term(e));
    y[rows[k]] = S::add(y[rows[k]], S::add(S::add(sum[0], sum[1]), S::add(sum[2], sum[3])));
  }
}
}  // namespace detail

// Summing by rows, for a program whose every x is active (stationary: pagerank): each row of
// `by_rows` (rows [first, last) of its non-empty rows) combines its columns' x in registers and
// adds the result to y once, so the tile is streamed in order, y written once a row, and x read
// at the row's columns, ascending. Four partial sums, so that the additions overlap.
template <class S>
void pull_sum(const Tcsc& by_rows, std::span<const typename S::X> x, std::span<typename S::Y> y, std::size_t first = 0,
              std::size_t last = SIZE_MAX) {
  last = std::min(last, by_rows.nonempty_columns());
  if (first >= last) return;
  if (S::unit_values || !by_rows.weighted())
    detail::pull_sum_rows<S, true>(by_rows, x.data(), y.data(), first, last);
  else
    detail::pull_sum_rows<S, false>(by_rows, x.data(), y.data(), first, last);
}

}  // namespace courier::la
