// The lexer: kinds, spellings and positions of tokens, and the errors it reports where they start.
#include "courier/dsl/lexer.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "courier/dsl/compile_error.hpp"

namespace courier::dsl {
namespace lexer_test {

std::vector<TokenKind> kinds(std::string_view text) {
  std::vector<TokenKind> out;
  for (const Token& t : lex(text, "t.sp")) out.push_back(t.kind);
  return out;
}

// Lexes `text`, which must fail, and returns the error.
CompileError lex_error(std::string_view text) {
  try {
    lex(text, "bad.sp");
  } catch (const CompileError& e) {
    return e;
  }
  ADD_FAILURE() << "lexing did not fail: " << text;
  return CompileError("", {}, "");
}

TEST(Lexer, KeywordsAndIdentifiers) {
  const auto tokens =
      lex("function sssp(Graph g, propNode<int> dist) forall fixedPoint iterateInReverse fixed", "t.sp");
  ASSERT_EQ(tokens.size(), 17u);
  EXPECT_EQ(tokens[0].kind, TokenKind::Function);
  EXPECT_EQ(tokens[1].kind, TokenKind::Identifier);
  EXPECT_EQ(tokens[1].text, "sssp");
  EXPECT_EQ(tokens[3].kind, TokenKind::Graph);
  EXPECT_EQ(tokens[6].kind, TokenKind::PropNode);
  EXPECT_EQ(tokens[7].kind, TokenKind::Less);
  EXPECT_EQ(tokens[8].kind, TokenKind::Int);
  EXPECT_EQ(tokens[9].kind, TokenKind::Greater);
  EXPECT_EQ(tokens[12].kind, TokenKind::Forall);
  EXPECT_EQ(tokens[13].kind, TokenKind::FixedPoint);
  EXPECT_EQ(tokens[14].kind, TokenKind::IterateInReverse);
  EXPECT_EQ(tokens[15].kind, TokenKind::Identifier);  // "fixed" is only a prefix of a keyword
}

TEST(Lexer, EveryKeyword) {
  const std::string words =
      "function Graph propNode propEdge node edge int long float double bool SetN forall for in if else while do "
      "fixedPoint until iterateInBFS iterateInReverse from filter return True False INF Min Max";
  const auto tokens = lex(words, "t.sp");
  ASSERT_EQ(tokens.size(), 32u);
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    EXPECT_EQ(category(tokens[i].kind), "keyword") << tokens[i].text;
  }
  EXPECT_EQ(tokens[28].kind, TokenKind::Inf);
  EXPECT_EQ(tokens.back().kind, TokenKind::End);
}

TEST(Lexer, OperatorsTakeTheLongestSpelling) {
  using K = TokenKind;
  EXPECT_EQ(kinds("a&&=b||=c&&d||e"),
            (std::vector<K>{K::Identifier, K::AndAssign, K::Identifier, K::OrAssign, K::Identifier, K::AndAnd,
                            K::Identifier, K::OrOr, K::Identifier, K::End}));
  EXPECT_EQ(kinds("+= -= *= ++ -- + - * / % !"),
            (std::vector<K>{K::PlusAssign, K::MinusAssign, K::StarAssign, K::PlusPlus, K::MinusMinus, K::Plus, K::Minus,
                            K::Star, K::Slash, K::Percent, K::Bang, K::End}));
  EXPECT_EQ(kinds("<= >= == != < > = ! ( ) { } , ; : ."),
            (std::vector<K>{K::LessEqual, K::GreaterEqual, K::EqualEqual, K::BangEqual, K::Less, K::Greater, K::Assign,
                            K::Bang, K::LeftParen, K::RightParen, K::LeftBrace, K::RightBrace, K::Comma, K::Semicolon,
                            K::Colon, K::Dot, K::End}));
  EXPECT_EQ(kinds("count++;"), (std::vector<K>{K::Identifier, K::PlusPlus, K::Semicolon, K::End}));
}

TEST(Lexer, MultiAssignment) {
  using K = TokenKind;
  EXPECT_EQ(kinds("<nbr.dist, nbr.modified> = <Min(nbr.dist, v.dist + e.weight), True>;"),
            (std::vector<K>{K::Less,       K::Identifier, K::Dot,     K::Identifier, K::Comma,     K::Identifier,
                            K::Dot,        K::Identifier, K::Greater, K::Assign,     K::Less,      K::Min,
                            K::LeftParen,  K::Identifier, K::Dot,     K::Identifier, K::Comma,     K::Identifier,
                            K::Dot,        K::Identifier, K::Plus,    K::Identifier, K::Dot,       K::Identifier,
                            K::RightParen, K::Comma,      K::True,    K::Greater,    K::Semicolon, K::End}));
}

TEST(Lexer, Numbers) {
  const auto tokens = lex("0 42 0.85 1e-9 2.5E+3 1.x", "t.sp");
  ASSERT_EQ(tokens.size(), 9u);
  EXPECT_EQ(tokens[0].kind, TokenKind::IntegerLiteral);
  EXPECT_EQ(tokens[1].text, "42");
  EXPECT_EQ(tokens[2].kind, TokenKind::RealLiteral);
  EXPECT_EQ(tokens[2].text, "0.85");
  EXPECT_EQ(tokens[3].kind, TokenKind::RealLiteral);
  EXPECT_EQ(tokens[3].text, "1e-9");
  EXPECT_EQ(tokens[4].kind, TokenKind::RealLiteral);
  EXPECT_EQ(tokens[5].kind, TokenKind::IntegerLiteral);  // "1." is 1 then '.'
  EXPECT_EQ(tokens[6].kind, TokenKind::Dot);
  EXPECT_EQ(tokens[7].kind, TokenKind::Identifier);
}

TEST(Lexer, PositionsCountLinesAndColumnsFromOne) {
  const auto tokens = lex("// a comment\n  x /* spans\n two lines */ y\n\tz", "t.sp");
  ASSERT_EQ(tokens.size(), 4u);
  EXPECT_EQ(tokens[0].location, (Location{2, 3}));
  EXPECT_EQ(tokens[1].location, (Location{3, 15}));
  EXPECT_EQ(tokens[2].location, (Location{4, 2}));  // a tab is one column
  EXPECT_EQ(tokens[3].kind, TokenKind::End);
  EXPECT_EQ(tokens[3].location, (Location{4, 3}));
}

TEST(Lexer, CommentsAtTheEndAndEmptyText) {
  EXPECT_EQ(kinds(""), std::vector<TokenKind>{TokenKind::End});
  EXPECT_EQ(kinds("x // no newline after"), (std::vector<TokenKind>{TokenKind::Identifier, TokenKind::End}));
  EXPECT_EQ(kinds("x /**/ /* * / */"), (std::vector<TokenKind>{TokenKind::Identifier, TokenKind::End}));
}

TEST(Lexer, FormatsTokensOnePerLine) {
  EXPECT_EQ(format_tokens(lex("forall (v\n in g)", "t.sp")),
            "1:1 keyword forall\n1:8 operator (\n1:9 identifier v\n2:2 keyword in\n2:5 identifier g\n"
            "2:6 operator )\n2:7 end <end>\n");
}

TEST(LexerErrors, UnknownCharacter) {
  const CompileError e = lex_error("int x = 1;\nx = x # 2;");
  EXPECT_EQ(e.location(), (Location{2, 7}));
  EXPECT_EQ(e.message(), "expected a token, found '#'");
  EXPECT_STREQ(e.what(), "bad.sp:2:7: expected a token, found '#'");
}

TEST(LexerErrors, SingleAmpersand) {
  const CompileError e = lex_error("a & b");
  EXPECT_EQ(e.location(), (Location{1, 3}));
  EXPECT_EQ(e.message(), "expected an operator, found '&' (the language has '&&', not '&')");
}

TEST(LexerErrors, UnterminatedComment) {
  const CompileError e = lex_error("x\n  /* never\n closed");
  EXPECT_EQ(e.location(), (Location{2, 3}));
  EXPECT_EQ(e.message(), "expected '*/' to close this comment, found end of file");
}

TEST(LexerErrors, LetterAfterNumber) {
  const CompileError e = lex_error("x = 12abc;");
  EXPECT_EQ(e.location(), (Location{1, 7}));
  EXPECT_EQ(e.message(), "expected an operator or a space after the number 12, found 'a'");
}

TEST(LexerErrors, IntegerTooLarge) {
  const CompileError e = lex_error("\n long x = 99999999999999999999;");
  EXPECT_EQ(e.location(), (Location{2, 11}));
  EXPECT_EQ(e.message(), "expected an integer that fits 64 bits, found 99999999999999999999");
}

}  // namespace lexer_test
}  // namespace courier::dsl
