#pragma once
// The tokens of Courier's graph language (StarPlat's): keywords, names, numbers and operators, each
// with where it starts.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "courier/dsl/location.hpp"

namespace courier::dsl {

enum class TokenKind : std::uint8_t {
  End,  // the end of the text
  Identifier,
  IntegerLiteral,
  RealLiteral,
  // Keywords.
  Function,
  Graph,
  PropNode,
  PropEdge,
  Node,
  Edge,
  Int,
  Long,
  Float,
  Double,
  Bool,
  SetN,
  Forall,
  For,
  In,
  If,
  Else,
  While,
  Do,
  FixedPoint,
  Until,
  IterateInBFS,
  IterateInReverse,
  From,
  Filter,
  Return,
  True,
  False,
  Inf,
  Min,
  Max,
  // Punctuation.
  LeftParen,
  RightParen,
  LeftBrace,
  RightBrace,
  Comma,
  Semicolon,
  Colon,
  Dot,
  // Operators.
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  Bang,
  Less,
  Greater,
  LessEqual,
  GreaterEqual,
  EqualEqual,
  BangEqual,
  AndAnd,
  OrOr,
  Assign,
  PlusAssign,
  MinusAssign,
  StarAssign,
  AndAssign,  // &&=
  OrAssign,   // ||=
  PlusPlus,
  MinusMinus,
};

struct Token {
  TokenKind kind = TokenKind::End;
  std::string text;  // as written ("" at the end)
  Location location;
};

// The keyword spelled `word`, if it is one.
std::optional<TokenKind> keyword(std::string_view word);

// How a kind reads in a message: "'forall'", "'+='", "an identifier", "a number", "end of file".
std::string describe(TokenKind kind);
// How a token reads as what was found: "identifier 'dist'", "number 12", "'}'", "end of file".
std::string describe(const Token& token);
// The kind's name for a token listing: "identifier", "keyword", "integer", "real", "operator", "end".
std::string_view category(TokenKind kind);

// One token per line, "LINE:COLUMN CATEGORY TEXT", as `courierc --emit tokens` prints them.
std::string format_tokens(const std::vector<Token>& tokens);

}  // namespace courier::dsl
