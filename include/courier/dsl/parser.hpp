#pragma once
// Tokens to an AST. The grammar is StarPlat's (see the comment at the top of parser.cpp); the AST
// it returns is unchecked: types, symbols and domains are filled in by check() (checker.hpp).
#include <string>
#include <string_view>
#include <vector>

#include "courier/dsl/program.hpp"
#include "courier/dsl/token.hpp"

namespace courier::dsl {

// Throws CompileError at the first token that does not fit: "FILE:LINE:COLUMN: expected X, found Y".
Program parse(std::vector<Token> tokens, std::string file);
// lex() then parse().
Program parse(std::string_view source, std::string file);

}  // namespace courier::dsl
