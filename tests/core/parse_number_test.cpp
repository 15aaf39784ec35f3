#include "courier/core/parse_number.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace parse_number_test {

using namespace courier;

namespace {

TEST(ParseNumber, UnsignedIntegers) {
  std::uint64_t v = 0;
  EXPECT_EQ(parse_unsigned(std::string_view("12345"), v), ParseStatus::ok);
  EXPECT_EQ(v, 12345u);
  EXPECT_EQ(parse_unsigned(std::string_view("+7"), v), ParseStatus::ok);
  EXPECT_EQ(v, 7u);
  EXPECT_EQ(parse_unsigned(std::string_view("18446744073709551615"), v), ParseStatus::ok);
  EXPECT_EQ(v, UINT64_MAX);
  EXPECT_EQ(parse_unsigned(std::string_view("18446744073709551616"), v), ParseStatus::out_of_range);
  EXPECT_EQ(parse_unsigned(std::string_view("-3"), v), ParseStatus::negative);
  EXPECT_EQ(parse_unsigned(std::string_view("-"), v), ParseStatus::not_a_number);
  EXPECT_EQ(parse_unsigned(std::string_view("12x"), v), ParseStatus::not_a_number);
  EXPECT_EQ(parse_unsigned(std::string_view("1.5"), v), ParseStatus::not_a_number);
  EXPECT_EQ(parse_unsigned(std::string_view(""), v), ParseStatus::not_a_number);
  std::uint32_t small = 0;
  EXPECT_EQ(parse_unsigned(std::string_view("4294967296"), small), ParseStatus::out_of_range);
}

TEST(ParseNumber, FloatingPoint) {
  float f = 0;
  EXPECT_EQ(parse_floating(std::string_view("2.5"), f), ParseStatus::ok);
  EXPECT_EQ(f, 2.5f);
  EXPECT_EQ(parse_floating(std::string_view("-1e3"), f), ParseStatus::ok);
  EXPECT_EQ(f, -1000.0f);
  EXPECT_EQ(parse_floating(std::string_view("+3"), f), ParseStatus::ok);
  EXPECT_EQ(f, 3.0f);
  EXPECT_EQ(parse_floating(std::string_view("1e99"), f), ParseStatus::out_of_range);
  EXPECT_EQ(parse_floating(std::string_view("2.5kg"), f), ParseStatus::not_a_number);
  EXPECT_EQ(parse_floating(std::string_view(""), f), ParseStatus::not_a_number);
}

TEST(ParseNumber, IntegralLooks) {
  EXPECT_TRUE(looks_integral("42"));
  EXPECT_TRUE(looks_integral("-42"));
  EXPECT_FALSE(looks_integral("4.0"));
  EXPECT_FALSE(looks_integral("4e2"));
  EXPECT_FALSE(looks_integral("-"));
  EXPECT_STREQ(describe(ParseStatus::negative), "is negative");
}

}  // namespace

}  // namespace parse_number_test
