#pragma once
// Number parsing over a char range, std::from_chars underneath: no locale, no iostreams, no
// allocation. A token must be consumed entirely ("12x" is not a number).
#include <charconv>
#include <concepts>
#include <string_view>
#include <system_error>

namespace courier {

enum class ParseStatus { ok, not_a_number, negative, out_of_range };

// Why a token was rejected, for error messages ("is not a number", ...).
const char* describe(ParseStatus status);

// A decimal unsigned integer; a leading '+' is accepted, a leading '-' gives `negative`.
template <std::unsigned_integral T>
ParseStatus parse_unsigned(std::string_view token, T& value) {
  const char* first = token.data();
  const char* last = first + token.size();
  if (first != last && *first == '+') ++first;
  if (first == last) return ParseStatus::not_a_number;
  if (*first == '-') {
    T ignored;
    const auto [end, error] = std::from_chars(first + 1, last, ignored);
    return end == last && end != first + 1 && error != std::errc::invalid_argument
               ? ParseStatus::negative
               : ParseStatus::not_a_number;
  }
  const auto [end, error] = std::from_chars(first, last, value);
  if (error == std::errc::result_out_of_range) return ParseStatus::out_of_range;
  if (error != std::errc() || end != last) return ParseStatus::not_a_number;
  return ParseStatus::ok;
}

// A decimal floating-point number (fixed or scientific; "inf" and "nan" too); '+' is accepted.
template <std::floating_point T>
ParseStatus parse_floating(std::string_view token, T& value) {
  const char* first = token.data();
  const char* last = first + token.size();
  if (first != last && *first == '+') ++first;
  const auto [end, error] = std::from_chars(first, last, value, std::chars_format::general);
  if (error == std::errc::result_out_of_range) return ParseStatus::out_of_range;
  if (error != std::errc() || end != last || first == last) return ParseStatus::not_a_number;
  return ParseStatus::ok;
}

// True if the token is written as an integer ([+-]digits): such weights are integers, anything
// with a decimal point or an exponent is real.
inline bool looks_integral(std::string_view token) {
  std::size_t i = 0;
  if (i < token.size() && (token[i] == '+' || token[i] == '-')) ++i;
  if (i == token.size()) return false;
  for (; i < token.size(); ++i)
    if (token[i] < '0' || token[i] > '9') return false;
  return true;
}

}  // namespace courier
