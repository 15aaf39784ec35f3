#pragma once
// Where a token or an AST node starts in a program's text. Lines and columns count from 1; a column
// counts bytes, so a tab is one column (as most compilers count them).
#include <cstdint>

namespace courier::dsl {

struct Location {
  std::uint32_t line = 0;
  std::uint32_t column = 0;

  friend bool operator==(const Location&, const Location&) = default;
};

}  // namespace courier::dsl
