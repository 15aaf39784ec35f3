#pragma once
// Parsing ids and weights out of tokens, with the error messages every text format shares.
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "courier/core/error.hpp"
#include "courier/core/memory.hpp"
#include "courier/core/parse_number.hpp"
#include "courier/graph/types.hpp"

namespace courier::graph::io {

// "source id 'x' is not a number", "weight '-3' is negative", ...
inline std::string bad_number(std::string_view what, std::string_view token, ParseStatus status) {
  return fmt::format("{} '{}' {}", what, token, describe(status));
}

// Parses an unsigned integer or throws InputError at file:line naming `what` ("source id").
template <class T>
T parse_or_throw(std::string_view token, std::string_view what, const std::string& file, std::uint64_t line) {
  T value;
  const ParseStatus status = parse_unsigned(token, value);
  if (status != ParseStatus::ok) throw_input_error(file, line, bad_number(what, token, status));
  return value;
}

// A 1-based id in [1, n], returned 0-based.
inline vertex_t parse_one_based_id(std::string_view token, std::string_view what, vertex_t n,
                                   const std::string& file, std::uint64_t line) {
  const auto id = parse_or_throw<vertex_t>(token, what, file, line);
  if (id == 0 || id > n)
    throw_input_error(file, line, fmt::format("{} {} is outside 1..{} (ids are 1-based and the header declares {})",
                                              what, id, n, n));
  return id - 1;
}

// "weight 'nan' is not a finite number": no algorithm can use one, so it is refused where read.
inline std::string infinite_weight(std::string_view token) {
  return fmt::format("weight '{}' is not a finite number", token);
}

// A real weight token; integers are accepted too ("3" is 3.0). NaN and infinities are refused.
inline float parse_real_or_throw(std::string_view token, const std::string& file, std::uint64_t line) {
  float value;
  const ParseStatus status = parse_floating(token, value);
  if (status != ParseStatus::ok) throw_input_error(file, line, bad_number("weight", token, status));
  if (!std::isfinite(value)) throw_input_error(file, line, infinite_weight(token));
  return value;
}

// A graph whose largest id is `largest` has largest + 1 vertices, and every per-vertex array (the
// CSR's offsets first) takes a word for each: when even one 8-byte word per vertex does not fit,
// the id is a mistake or sparse, and the reader says so at its line, before anything is built.
// `line_of` is called only then (in a part of a file it counts the lines before the part).
template <class LineOf>
void check_id_range(const std::string& path, vertex_t largest, std::string_view what, LineOf&& line_of) {
  const std::uint64_t bytes = (static_cast<std::uint64_t>(largest) + 1) * sizeof(std::uint64_t);
  if (largest == kNoVertex || fits_in_memory(bytes)) return;
  check_memory(fmt::format("{}:{}: {} makes a graph of {} vertices; one word per vertex alone", path, line_of(), what,
                           static_cast<std::uint64_t>(largest) + 1),
               bytes,
               fmt::format("if few of the ids are used, renumber them densely once with `courier convert {} -o "
                           "OUT.csr --compact-ids`",
                           path));
}

}  // namespace courier::graph::io
