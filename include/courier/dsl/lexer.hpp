#pragma once
// Text to tokens. Comments (// to the end of the line, /* ... */) and white space separate tokens and
// are dropped; the last token is always TokenKind::End.
#include <string_view>
#include <vector>

#include "courier/dsl/token.hpp"

namespace courier::dsl {

// Throws CompileError naming `file` at the first character that starts no token, a block comment
// that never ends, or a number that does not fit.
std::vector<Token> lex(std::string_view source, std::string_view file);

}  // namespace courier::dsl
