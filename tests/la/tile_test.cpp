// TCSC tiles hold exactly their entries, in memory that follows the non-zeros, and SpMSpV over
// them -- dense or sparse x, under each semiring -- equals a plain product.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <tuple>
#include <vector>

#include "courier/la/pull.hpp"
#include "courier/la/semiring.hpp"
#include "courier/la/spmspv.hpp"
#include "courier/la/tcsc.hpp"

namespace tile_test {

namespace la = courier::la;

namespace {

std::vector<la::Entry> random_entries(std::uint32_t width, std::size_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<la::Entry> entries;
  for (std::size_t k = 0; k < count; ++k)
    entries.push_back({static_cast<std::uint32_t>(rng() % width), static_cast<std::uint32_t>(rng() % width),
                       static_cast<float>(rng() % 255 + 1)});
  return entries;
}

// The plain product: y[r] = add over entries (r, c) of multiply(value, x[c]), x[c] skipped when
// inactive.
template <class S>
std::vector<typename S::Y> plain(const std::vector<la::Entry>& entries, const std::vector<typename S::X>& x,
                                 const std::vector<bool>& active, std::uint32_t width) {
  std::vector<typename S::Y> y(width, S::identity);
  for (const la::Entry& e : entries)
    if (active[e.column]) y[e.row] = S::add(y[e.row], S::multiply(S::unit_values ? 1.0f : e.value, x[e.column]));
  return y;
}

template <class S>
void check_semiring(std::uint64_t seed) {
  const std::uint32_t width = 500;
  const auto entries = random_entries(width, 3000, seed);
  const la::Tcsc tile(entries, true);
  std::mt19937_64 rng(seed + 1);
  std::vector<typename S::X> x(width, static_cast<typename S::X>(S::identity));
  std::vector<bool> active(width, false);
  std::vector<la::Sparse<typename S::X>> pairs;
  for (std::uint32_t c = 0; c < width; ++c) {
    if (rng() % 5 != 0) continue;  // a fifth active
    active[c] = true;
    x[c] = static_cast<typename S::X>(rng() % 1000 + 1);
    pairs.push_back({c, x[c]});
  }
  const auto expected = plain<S>(entries, x, active, width);
  std::vector<typename S::Y> dense(width, S::identity), sparse(width, S::identity), pulled(width, S::identity);
  la::spmspv_dense<S>(tile, x, dense);
  la::spmspv_sparse<S>(tile, std::span<const la::Sparse<typename S::X>>(pairs), sparse);
  // By rows, every x read (an inactive one is the identity, which adds nothing).
  la::pull_sum<S>(tile.turned(true), x, pulled);
  for (std::uint32_t r = 0; r < width; ++r) {
    EXPECT_DOUBLE_EQ(static_cast<double>(dense[r]), static_cast<double>(expected[r])) << "row " << r;
    EXPECT_DOUBLE_EQ(static_cast<double>(sparse[r]), static_cast<double>(expected[r])) << "row " << r;
    EXPECT_NEAR(static_cast<double>(pulled[r]), static_cast<double>(expected[r]),
                1e-12 * std::abs(static_cast<double>(expected[r])))
        << "row " << r;
  }
}

}  // namespace

TEST(Tcsc, HoldsExactlyItsEntriesByColumn) {
  const auto entries = random_entries(1000, 4000, 7);
  const la::Tcsc tile(entries, true);
  EXPECT_EQ(tile.nonzeros(), entries.size());
  std::vector<std::tuple<std::uint32_t, std::uint32_t, float>> want, got;
  for (const la::Entry& e : entries) want.emplace_back(e.row, e.column, e.value);
  const auto columns = tile.columns();
  EXPECT_TRUE(std::is_sorted(columns.begin(), columns.end()));
  EXPECT_EQ(std::adjacent_find(columns.begin(), columns.end()), columns.end());  // each column once
  for (std::size_t k = 0; k < columns.size(); ++k) {
    EXPECT_LT(tile.pointers()[k], tile.pointers()[k + 1]);  // only non-empty columns
    for (auto e = tile.pointers()[k]; e < tile.pointers()[k + 1]; ++e)
      got.emplace_back(tile.rows()[e], columns[k], tile.values()[e]);
  }
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(want, got);
}

// Every (row, column, value) of a tile, in the order it holds them.
std::vector<std::tuple<std::uint32_t, std::uint32_t, float>> triples(const la::Tcsc& tile, bool turned = false) {
  std::vector<std::tuple<std::uint32_t, std::uint32_t, float>> out;
  for (std::size_t k = 0; k < tile.nonempty_columns(); ++k)
    for (auto e = tile.pointers()[k]; e < tile.pointers()[k + 1]; ++e) {
      const float value = tile.weighted() ? tile.values()[e] : 1.0f;
      out.emplace_back(turned ? tile.columns()[k] : tile.rows()[e], turned ? tile.rows()[e] : tile.columns()[k], value);
    }
  return out;
}

TEST(Tcsc, TurnedAndBuiltByCountingHoldTheSameEntriesInOrder) {
  const auto entries = random_entries(300, 2000, 11);
  const la::Tcsc tile(entries, true);
  const la::Tcsc turned = tile.turned(true);
  // Turned: the same entries, each turned column (a row) ascending, and back again the same tile.
  EXPECT_EQ(turned.nonzeros(), tile.nonzeros());
  auto want = triples(tile), got = triples(turned, true);
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(want, got);
  for (std::size_t k = 0; k < turned.nonempty_columns(); ++k)
    EXPECT_TRUE(std::is_sorted(turned.rows().begin() + static_cast<std::ptrdiff_t>(turned.pointers()[k]),
                               turned.rows().begin() + static_cast<std::ptrdiff_t>(turned.pointers()[k + 1])));
  const la::Tcsc back = turned.turned(true);
  EXPECT_TRUE(std::equal(back.columns().begin(), back.columns().end(), tile.columns().begin(), tile.columns().end()));
  EXPECT_TRUE(std::equal(back.rows().begin(), back.rows().end(), tile.rows().begin(), tile.rows().end()));
  EXPECT_FALSE(tile.turned(false).weighted());
  // A builder fed by rows, then turned, is the tile sorted by (column, row) too.
  la::TcscBuilder by_rows(300, true);
  for (const la::Entry& e : entries) by_rows.count(e.row);
  by_rows.allocate();
  for (const la::Entry& e : entries) by_rows.place(e.column, e.row, e.value);
  const la::Tcsc built = by_rows.finish().turned(true);
  EXPECT_TRUE(std::equal(built.columns().begin(), built.columns().end(), tile.columns().begin(), tile.columns().end()));
  EXPECT_TRUE(std::equal(built.rows().begin(), built.rows().end(), tile.rows().begin(), tile.rows().end()));
  EXPECT_EQ(triples(built).size(), entries.size());
}

TEST(Tcsc, SplitKeepsTheRowsOutsideTheSetFirst) {
  const auto entries = random_entries(200, 1500, 13);
  const la::Tcsc tile(entries, true);
  std::vector<std::uint8_t> out(200, 0);
  for (std::size_t r = 0; r < out.size(); r += 3) out[r] = 1;
  const auto [kept, others] = tile.split(out);
  EXPECT_EQ(kept.nonzeros() + others.nonzeros(), tile.nonzeros());
  for (const auto& [row, column, value] : triples(kept)) EXPECT_EQ(out[row], 0) << row;
  for (const auto& [row, column, value] : triples(others)) EXPECT_EQ(out[row], 1) << row;
  auto want = triples(tile), got = triples(kept);
  const auto rest = triples(others);
  got.insert(got.end(), rest.begin(), rest.end());
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(want, got);
}

TEST(Tcsc, MemoryFollowsTheNonzerosNotTheWidth) {
  // Ten entries in a tile a billion vertices wide.
  std::vector<la::Entry> entries;
  for (std::uint32_t k = 0; k < 10; ++k) entries.push_back({k * 100000000u, k * 99999989u, 1});
  const la::Tcsc tile(entries, false);
  EXPECT_EQ(tile.nonempty_columns(), 10u);
  EXPECT_FALSE(tile.weighted());
  EXPECT_LT(tile.bytes(), 1024u);
  EXPECT_EQ(la::Tcsc({}, false).nonzeros(), 0u);
}

TEST(Spmspv, DenseAndSparseEqualThePlainProductUnderEverySemiring) {
  check_semiring<la::PlusTimes>(1);
  check_semiring<la::PlusSecond>(2);
  check_semiring<la::MinPlus>(3);
  check_semiring<la::MinSecond>(4);
  check_semiring<la::OrAnd>(5);
}

}  // namespace tile_test
