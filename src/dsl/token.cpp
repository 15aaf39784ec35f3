#include "courier/dsl/token.hpp"

#include <fmt/format.h>

#include <array>
#include <utility>

namespace courier::dsl {

namespace {

struct Spelling {
  TokenKind kind;
  std::string_view text;
};

// Every token kind with a fixed spelling, keywords first (keyword() searches those).
constexpr std::array kSpellings{
    Spelling{TokenKind::Function, "function"},
    Spelling{TokenKind::Graph, "Graph"},
    Spelling{TokenKind::PropNode, "propNode"},
    Spelling{TokenKind::PropEdge, "propEdge"},
    Spelling{TokenKind::Node, "node"},
    Spelling{TokenKind::Edge, "edge"},
    Spelling{TokenKind::Int, "int"},
    Spelling{TokenKind::Long, "long"},
    Spelling{TokenKind::Float, "float"},
    Spelling{TokenKind::Double, "double"},
    Spelling{TokenKind::Bool, "bool"},
    Spelling{TokenKind::SetN, "SetN"},
    Spelling{TokenKind::Forall, "forall"},
    Spelling{TokenKind::For, "for"},
    Spelling{TokenKind::In, "in"},
    Spelling{TokenKind::If, "if"},
    Spelling{TokenKind::Else, "else"},
    Spelling{TokenKind::While, "while"},
    Spelling{TokenKind::Do, "do"},
    Spelling{TokenKind::FixedPoint, "fixedPoint"},
    Spelling{TokenKind::Until, "until"},
    Spelling{TokenKind::IterateInBFS, "iterateInBFS"},
    Spelling{TokenKind::IterateInReverse, "iterateInReverse"},
    Spelling{TokenKind::From, "from"},
    Spelling{TokenKind::Filter, "filter"},
    Spelling{TokenKind::Return, "return"},
    Spelling{TokenKind::True, "True"},
    Spelling{TokenKind::False, "False"},
    Spelling{TokenKind::Inf, "INF"},
    Spelling{TokenKind::Min, "Min"},
    Spelling{TokenKind::Max, "Max"},
    Spelling{TokenKind::LeftParen, "("},
    Spelling{TokenKind::RightParen, ")"},
    Spelling{TokenKind::LeftBrace, "{"},
    Spelling{TokenKind::RightBrace, "}"},
    Spelling{TokenKind::Comma, ","},
    Spelling{TokenKind::Semicolon, ";"},
    Spelling{TokenKind::Colon, ":"},
    Spelling{TokenKind::Dot, "."},
    Spelling{TokenKind::Plus, "+"},
    Spelling{TokenKind::Minus, "-"},
    Spelling{TokenKind::Star, "*"},
    Spelling{TokenKind::Slash, "/"},
    Spelling{TokenKind::Percent, "%"},
    Spelling{TokenKind::Bang, "!"},
    Spelling{TokenKind::Less, "<"},
    Spelling{TokenKind::Greater, ">"},
    Spelling{TokenKind::LessEqual, "<="},
    Spelling{TokenKind::GreaterEqual, ">="},
    Spelling{TokenKind::EqualEqual, "=="},
    Spelling{TokenKind::BangEqual, "!="},
    Spelling{TokenKind::AndAnd, "&&"},
    Spelling{TokenKind::OrOr, "||"},
    Spelling{TokenKind::Assign, "="},
    Spelling{TokenKind::PlusAssign, "+="},
    Spelling{TokenKind::MinusAssign, "-="},
    Spelling{TokenKind::StarAssign, "*="},
    Spelling{TokenKind::AndAssign, "&&="},
    Spelling{TokenKind::OrAssign, "||="},
    Spelling{TokenKind::PlusPlus, "++"},
    Spelling{TokenKind::MinusMinus, "--"},
};
constexpr std::size_t kKeywordCount = 31;
static_assert(kSpellings[kKeywordCount - 1].kind == TokenKind::Max &&
                  kSpellings[kKeywordCount].kind == TokenKind::LeftParen,
              "the keywords are the first kKeywordCount spellings");

std::string_view fixed_spelling(TokenKind kind) {
  for (const Spelling& s : kSpellings) {
    if (s.kind == kind) return s.text;
  }
  return {};
}

bool is_keyword(TokenKind kind) {
  for (std::size_t i = 0; i < kKeywordCount; ++i) {
    if (kSpellings[i].kind == kind) return true;
  }
  return false;
}

}  // namespace

std::optional<TokenKind> keyword(std::string_view word) {
  for (std::size_t i = 0; i < kKeywordCount; ++i) {
    if (kSpellings[i].text == word) return kSpellings[i].kind;
  }
  return std::nullopt;
}

std::string describe(TokenKind kind) {
  switch (kind) {
    case TokenKind::End:
      return "end of file";
    case TokenKind::Identifier:
      return "an identifier";
    case TokenKind::IntegerLiteral:
    case TokenKind::RealLiteral:
      return "a number";
    default:
      return fmt::format("'{}'", fixed_spelling(kind));
  }
}

std::string describe(const Token& token) {
  switch (token.kind) {
    case TokenKind::End:
      return "end of file";
    case TokenKind::Identifier:
      return fmt::format("identifier '{}'", token.text);
    case TokenKind::IntegerLiteral:
    case TokenKind::RealLiteral:
      return fmt::format("number {}", token.text);
    default:
      return fmt::format("'{}'", token.text);
  }
}

std::string_view category(TokenKind kind) {
  switch (kind) {
    case TokenKind::End:
      return "end";
    case TokenKind::Identifier:
      return "identifier";
    case TokenKind::IntegerLiteral:
      return "integer";
    case TokenKind::RealLiteral:
      return "real";
    default:
      return is_keyword(kind) ? "keyword" : "operator";
  }
}

std::string format_tokens(const std::vector<Token>& tokens) {
  std::string out;
  for (const Token& t : tokens) {
    fmt::format_to(std::back_inserter(out), "{}:{} {} {}\n", t.location.line, t.location.column, category(t.kind),
                   t.kind == TokenKind::End ? "<end>" : t.text);
  }
  return out;
}

}  // namespace courier::dsl
