#include "courier/dsl/lexer.hpp"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <string>

#include "courier/dsl/compile_error.hpp"

namespace courier::dsl {

namespace {

bool is_identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

struct Operator {
  std::string_view text;
  TokenKind kind;
};
// Longest first, so that "&&=" is not read as "&&" then "=" (maximal munch).
constexpr std::array kOperators{
    Operator{"&&=", TokenKind::AndAssign}, Operator{"||=", TokenKind::OrAssign},
    Operator{"<=", TokenKind::LessEqual},  Operator{">=", TokenKind::GreaterEqual},
    Operator{"==", TokenKind::EqualEqual}, Operator{"!=", TokenKind::BangEqual},
    Operator{"&&", TokenKind::AndAnd},     Operator{"||", TokenKind::OrOr},
    Operator{"+=", TokenKind::PlusAssign}, Operator{"-=", TokenKind::MinusAssign},
    Operator{"*=", TokenKind::StarAssign}, Operator{"++", TokenKind::PlusPlus},
    Operator{"--", TokenKind::MinusMinus}, Operator{"(", TokenKind::LeftParen},
    Operator{")", TokenKind::RightParen},  Operator{"{", TokenKind::LeftBrace},
    Operator{"}", TokenKind::RightBrace},  Operator{",", TokenKind::Comma},
    Operator{";", TokenKind::Semicolon},   Operator{":", TokenKind::Colon},
    Operator{".", TokenKind::Dot},         Operator{"+", TokenKind::Plus},
    Operator{"-", TokenKind::Minus},       Operator{"*", TokenKind::Star},
    Operator{"/", TokenKind::Slash},       Operator{"%", TokenKind::Percent},
    Operator{"!", TokenKind::Bang},        Operator{"<", TokenKind::Less},
    Operator{">", TokenKind::Greater},     Operator{"=", TokenKind::Assign},
};

class Lexer {
 public:
  Lexer(std::string_view source, std::string_view file) : source_(source), file_(file) {}

  std::vector<Token> run() {
    std::vector<Token> tokens;
    for (;;) {
      skip_space_and_comments();
      const Location start = here();
      if (at_end()) {
        tokens.push_back({TokenKind::End, "", start});
        return tokens;
      }
      tokens.push_back(next_token(start));
    }
  }

 private:
  bool at_end() const { return pos_ >= source_.size(); }
  char peek(std::size_t ahead = 0) const { return pos_ + ahead < source_.size() ? source_[pos_ + ahead] : '\0'; }
  Location here() const { return {line_, column_}; }

  void advance() {
    if (source_[pos_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++pos_;
  }

  [[noreturn]] void fail(Location where, std::string message) const {
    throw CompileError(std::string(file_), where, std::move(message));
  }

  void skip_space_and_comments() {
    while (!at_end()) {
      const char c = peek();
      if (std::isspace(static_cast<unsigned char>(c))) {
        advance();
      } else if (c == '/' && peek(1) == '/') {
        while (!at_end() && peek() != '\n') advance();
      } else if (c == '/' && peek(1) == '*') {
        const Location start = here();
        advance();
        advance();
        while (!(peek() == '*' && peek(1) == '/')) {
          if (at_end()) fail(start, "expected '*/' to close this comment, found end of file");
          advance();
        }
        advance();
        advance();
      } else {
        return;
      }
    }
  }

  Token next_token(Location start) {
    const char c = peek();
    if (is_identifier_start(c)) return word(start);
    if (is_digit(c)) return number(start);
    for (const Operator& op : kOperators) {
      if (source_.substr(pos_, op.text.size()) == op.text) {
        for (std::size_t i = 0; i < op.text.size(); ++i) advance();
        return {op.kind, std::string(op.text), start};
      }
    }
    if (c == '&' || c == '|') {
      fail(start, fmt::format("expected an operator, found '{0}' (the language has '{0}{0}', not '{0}')", c));
    }
    if (std::isprint(static_cast<unsigned char>(c))) fail(start, fmt::format("expected a token, found '{}'", c));
    fail(start, fmt::format("expected a token, found the byte 0x{:02x}", static_cast<unsigned char>(c)));
  }

  Token word(Location start) {
    const std::size_t begin = pos_;
    while (is_identifier_char(peek())) advance();
    std::string text(source_.substr(begin, pos_ - begin));
    const auto kind = keyword(text);
    return {kind ? *kind : TokenKind::Identifier, std::move(text), start};
  }

  // digits [. digits] [(e|E) [+|-] digits]
  Token number(Location start) {
    const std::size_t begin = pos_;
    bool real = false;
    while (is_digit(peek())) advance();
    if (peek() == '.' && is_digit(peek(1))) {
      real = true;
      advance();
      while (is_digit(peek())) advance();
    }
    if ((peek() == 'e' || peek() == 'E') &&
        (is_digit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && is_digit(peek(2))))) {
      real = true;
      advance();
      if (peek() == '+' || peek() == '-') advance();
      while (is_digit(peek())) advance();
    }
    std::string text(source_.substr(begin, pos_ - begin));
    if (is_identifier_char(peek())) {
      fail(here(), fmt::format("expected an operator or a space after the number {}, found '{}'", text, peek()));
    }
    if (real) {
      double value = 0;
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (error != std::errc() || end != text.data() + text.size()) {
        fail(start, fmt::format("expected a number that fits a double, found {}", text));
      }
      return {TokenKind::RealLiteral, std::move(text), start};
    }
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) {
      fail(start, fmt::format("expected an integer that fits 64 bits, found {}", text));
    }
    return {TokenKind::IntegerLiteral, std::move(text), start};
  }

  std::string_view source_;
  std::string_view file_;
  std::size_t pos_ = 0;
  std::uint32_t line_ = 1;
  std::uint32_t column_ = 1;
};

}  // namespace

std::vector<Token> lex(std::string_view source, std::string_view file) { return Lexer(source, file).run(); }

}  // namespace courier::dsl
