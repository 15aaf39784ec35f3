#include "courier/core/fast_divide.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

namespace fast_divide_test {

using courier::FastDivisor;

namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

// The values where a quotient estimate is most likely to be off: 0, small ones, multiples of d and
// their neighbours, powers of two, and the top of the range.
std::vector<std::uint64_t> edge_values(std::uint64_t d) {
  std::vector<std::uint64_t> values;
  for (std::uint64_t n = 0; n < 4096; ++n) values.push_back(n);
  for (std::uint64_t k = 0; k < 64; ++k) {
    const std::uint64_t p = std::uint64_t{1} << k;
    for (std::uint64_t n : {p - 1, p, p + 1}) values.push_back(n);
  }
  for (std::uint64_t n = kMax; n > kMax - 4096; --n) values.push_back(n);
  for (std::uint64_t q : {std::uint64_t{1}, std::uint64_t{1000}, kMax / d - 1, kMax / d}) {
    if (q > kMax / d) continue;
    const std::uint64_t m = q * d;
    for (std::uint64_t n : {m - 1, m, m + 1}) values.push_back(n);
  }
  return values;
}

void expect_exact(std::uint64_t d) {
  const FastDivisor divisor(d);
  EXPECT_EQ(divisor.divisor(), d);
  std::mt19937_64 random(d);
  std::vector<std::uint64_t> values = edge_values(d);
  for (int i = 0; i < 100000; ++i) values.push_back(random());
  for (const std::uint64_t n : values) {
    const auto [q, r] = divisor.divide(n);
    ASSERT_EQ(q, n / d) << n << " / " << d;
    ASSERT_EQ(r, n % d) << n << " % " << d;
    ASSERT_EQ(divisor.quotient(n), n / d);
    ASSERT_EQ(divisor.remainder(n), n % d);
  }
}

TEST(FastDivisor, RankCounts) {
  for (std::uint64_t d : {1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 96, 1000, 1023, 1024, 1025}) expect_exact(d);
}

TEST(FastDivisor, LargeDivisors) {
  for (std::uint64_t d : {std::uint64_t{1} << 31, (std::uint64_t{1} << 32) - 1, std::uint64_t{1} << 32,
                          (std::uint64_t{1} << 32) + 1, std::uint64_t{0x9E3779B97F4A7C15}, std::uint64_t{1} << 63,
                          (std::uint64_t{1} << 63) + 1, kMax - 1, kMax}) {
    expect_exact(d);
  }
}

TEST(FastDivisor, ZeroIsRejected) { EXPECT_THROW(FastDivisor(0), std::invalid_argument); }

}  // namespace

}  // namespace fast_divide_test
