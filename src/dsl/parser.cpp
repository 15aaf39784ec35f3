// The parser: hand-written recursive descent, one function per rule of the grammar below.
//
// Why by hand rather than bison or PEGTL: every error is raised by the rule that knows what it
// wanted at that point, so a message can say "expected ')' to close the forall's header, found '{'"
// instead of an LR table's "syntax error, unexpected '{'", and it names exactly the token where the
// program went wrong. The language is small and LL(1) except in three places, decided by looking
// one token further: a named argument (`dist = INF` in a call), `<` opening a multi-assignment at
// the start of a statement, and `.filter` ending a loop's range. Inside the values of a
// multi-assignment `>` closes the list rather than comparing (parenthesise a comparison there), and
// `>=` written without a space after the targets is read as `>` `=`.
//
//   program     := function+
//   function    := 'function' NAME '(' [param {',' param}] ')' block
//   param       := type NAME
//   type        := 'int' | 'long' | 'float' | 'double' | 'bool' | 'node' | 'edge' | 'Graph'
//                | ('propNode' | 'propEdge') '<' ('int'|'long'|'float'|'double'|'bool'|'node') '>'
//                | 'SetN' '<' NAME '>'
//   block       := '{' statement* '}'
//   statement   := block | type NAME ['=' expr] ';'
//                | 'if' '(' expr ')' statement ['else' statement]
//                | 'while' '(' expr ')' block | 'do' block 'while' '(' expr ')' ';'
//                | ('forall' | 'for') '(' NAME 'in' postfix ['.' 'filter' '(' expr ')'] ')' block
//                | 'fixedPoint' 'until' '(' NAME ':' expr ')' block
//                | 'iterateInBFS' '(' NAME 'in' postfix 'from' expr ')' block
//                  ['iterateInReverse' ['(' expr ')'] block]
//                | 'return' [expr] ';'
//                | '<' lvalue {',' lvalue} '>' '=' '<' minmax {',' expr} '>' ';'
//                | lvalue '=' minmax ';' | lvalue '=' expr ';'
//                | lvalue ('+=' | '-=' | '*=' | '&&=' | '||=') expr ';' | lvalue ('++' | '--') ';'
//                | postfix ';'                                      (a method call)
//   minmax      := ('Min' | 'Max') '(' lvalue ',' expr ')'           (the first argument is the target)
//   lvalue      := NAME | postfix '.' NAME
//   expr        := binary operators, loosest first: || ; && ; == != ; < <= > >= ; + - ; * / %
//   unary       := ('!' | '-') unary | postfix
//   postfix     := primary {'.' NAME ['(' [arg {',' arg}] ')']}
//   arg         := NAME '=' expr | expr
//   primary     := NUMBER | 'True' | 'False' | 'INF' | NAME | '(' expr ')'
#include "courier/dsl/parser.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstdint>
#include <optional>
#include <utility>

#include "courier/dsl/compile_error.hpp"
#include "courier/dsl/lexer.hpp"

namespace courier::dsl {

namespace {

bool is_type_start(TokenKind k) {
  switch (k) {
    case TokenKind::Int:
    case TokenKind::Long:
    case TokenKind::Float:
    case TokenKind::Double:
    case TokenKind::Bool:
    case TokenKind::Node:
    case TokenKind::Edge:
    case TokenKind::Graph:
    case TokenKind::PropNode:
    case TokenKind::PropEdge:
    case TokenKind::SetN:
      return true;
    default:
      return false;
  }
}

std::optional<TypeKind> simple_type(TokenKind k) {
  switch (k) {
    case TokenKind::Int:
      return TypeKind::Int;
    case TokenKind::Long:
      return TypeKind::Long;
    case TokenKind::Float:
      return TypeKind::Float;
    case TokenKind::Double:
      return TypeKind::Double;
    case TokenKind::Bool:
      return TypeKind::Bool;
    case TokenKind::Node:
      return TypeKind::Node;
    case TokenKind::Edge:
      return TypeKind::Edge;
    case TokenKind::Graph:
      return TypeKind::Graph;
    default:
      return std::nullopt;
  }
}

std::optional<ReductionOp> compound_op(TokenKind k) {
  switch (k) {
    case TokenKind::PlusAssign:
      return ReductionOp::Add;
    case TokenKind::MinusAssign:
      return ReductionOp::Subtract;
    case TokenKind::StarAssign:
      return ReductionOp::Multiply;
    case TokenKind::AndAssign:
      return ReductionOp::And;
    case TokenKind::OrAssign:
      return ReductionOp::Or;
    default:
      return std::nullopt;
  }
}

// The binary operators of one precedence level (0 loosest, as in expr.cpp).
constexpr int kBinaryLevels = 6;
std::optional<BinaryOp> binary_op(TokenKind k, int level) {
  switch (level) {
    case 0:
      if (k == TokenKind::OrOr) return BinaryOp::Or;
      break;
    case 1:
      if (k == TokenKind::AndAnd) return BinaryOp::And;
      break;
    case 2:
      if (k == TokenKind::EqualEqual) return BinaryOp::Equal;
      if (k == TokenKind::BangEqual) return BinaryOp::NotEqual;
      break;
    case 3:
      if (k == TokenKind::Less) return BinaryOp::Less;
      if (k == TokenKind::LessEqual) return BinaryOp::LessEqual;
      if (k == TokenKind::Greater) return BinaryOp::Greater;
      if (k == TokenKind::GreaterEqual) return BinaryOp::GreaterEqual;
      break;
    case 4:
      if (k == TokenKind::Plus) return BinaryOp::Add;
      if (k == TokenKind::Minus) return BinaryOp::Subtract;
      break;
    case 5:
      if (k == TokenKind::Star) return BinaryOp::Multiply;
      if (k == TokenKind::Slash) return BinaryOp::Divide;
      if (k == TokenKind::Percent) return BinaryOp::Modulo;
      break;
  }
  return std::nullopt;
}

// The value of a number the lexer has already checked.
template <class T>
T number(const std::string& text) {
  T value{};
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

bool is_lvalue(const Expr& e) { return e.as<NameRef>() || e.as<PropertyRef>(); }

class Parser {
 public:
  Parser(std::vector<Token> tokens, std::string file) : tokens_(std::move(tokens)), file_(std::move(file)) {}

  Program program() {
    Program p;
    p.file = file_;
    do {
      p.functions.push_back(function());
    } while (!at(TokenKind::End));
    return p;
  }

 private:
  // ---- tokens
  const Token& peek(std::size_t ahead = 0) const {
    const std::size_t i = pos_ + ahead;
    return i < tokens_.size() ? tokens_[i] : tokens_.back();
  }
  bool at(TokenKind k) const { return peek().kind == k; }
  const Token& next() {
    const Token& t = peek();
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
  }
  bool accept(TokenKind k) {
    if (!at(k)) return false;
    next();
    return true;
  }
  // The next token, which must be of kind k; `expected` says what was wanted when it is not
  // (by default the token's own spelling).
  const Token& expect(TokenKind k, std::string_view expected = {}) {
    if (!at(k)) fail(expected.empty() ? describe(k) : std::string(expected));
    return next();
  }
  [[noreturn]] void fail(std::string_view expected) const { fail_at(peek(), expected); }
  [[noreturn]] void fail_at(const Token& found, std::string_view expected) const {
    throw CompileError(file_, found.location, fmt::format("expected {}, found {}", expected, describe(found)));
  }
  [[noreturn]] void fail_with(Location where, std::string message) const {
    throw CompileError(file_, where, std::move(message));
  }

  // ---- declarations
  Function function() {
    Function f;
    f.location = expect(TokenKind::Function).location;
    f.name = expect(TokenKind::Identifier, "the function's name").text;
    expect(TokenKind::LeftParen, "'(' to open the parameters");
    if (!at(TokenKind::RightParen)) {
      do {
        Parameter p;
        p.location = peek().location;
        p.type = type("a parameter's type");
        p.name = expect(TokenKind::Identifier, "the parameter's name").text;
        f.parameters.push_back(std::move(p));
      } while (accept(TokenKind::Comma));
    }
    expect(TokenKind::RightParen, "',' or ')' after a parameter");
    f.body = block();
    return f;
  }

  Type type(std::string_view expected) {
    const Token& t = peek();
    if (auto simple = simple_type(t.kind)) {
      next();
      return Type::of(*simple);
    }
    if (t.kind == TokenKind::PropNode || t.kind == TokenKind::PropEdge) {
      next();
      expect(TokenKind::Less, fmt::format("'<' after '{}'", t.text));
      const Token& element = peek();
      const auto value = simple_type(element.kind);
      if (!value || *value == TypeKind::Edge || *value == TypeKind::Graph) {
        fail("a property's value type (int, long, float, double, bool or node)");
      }
      next();
      expect(TokenKind::Greater, fmt::format("'>' to close '{}<{}'", t.text, element.text));
      return Type::property(t.kind == TokenKind::PropNode ? TypeKind::NodeProperty : TypeKind::EdgeProperty, *value);
    }
    if (t.kind == TokenKind::SetN) {
      next();
      expect(TokenKind::Less, "'<' after 'SetN'");
      Type set = Type::of(TypeKind::NodeSet);
      set.graph = expect(TokenKind::Identifier, "the name of a graph").text;
      expect(TokenKind::Greater, fmt::format("'>' to close 'SetN<{}'", set.graph));
      return set;
    }
    fail(expected);
  }

  // ---- statements
  Block block() {
    expect(TokenKind::LeftBrace, "'{'");
    Block b;
    while (!at(TokenKind::RightBrace)) {
      if (at(TokenKind::End)) fail("a statement or '}'");
      b.statements.push_back(statement());
    }
    next();
    return b;
  }

  Stmt statement() {
    const Token& t = peek();
    if (is_type_start(t.kind)) return declaration();
    switch (t.kind) {
      case TokenKind::LeftBrace:
        return make_stmt(t.location, block());
      case TokenKind::If:
        return if_statement();
      case TokenKind::While:
        return while_statement();
      case TokenKind::Do:
        return do_while_statement();
      case TokenKind::Forall:
      case TokenKind::For:
        return forall_statement();
      case TokenKind::FixedPoint:
        return fixed_point_statement();
      case TokenKind::IterateInBFS:
        return bfs_statement();
      case TokenKind::Return:
        return return_statement();
      case TokenKind::Less:
        return tuple_reduction();
      case TokenKind::Identifier:
        return simple_statement();
      case TokenKind::IterateInReverse:
        fail("a statement (iterateInReverse follows the block of an iterateInBFS)");
      case TokenKind::Else:
        fail("a statement ('else' follows the statement of an 'if')");
      default:
        fail("a statement");
    }
  }

  Stmt declaration() {
    const Location at_start = peek().location;
    Declaration d;
    d.type = type("a type");
    const Token& name = expect(TokenKind::Identifier, "the name of the variable");
    d.name = name.text;
    d.name_location = name.location;
    if (accept(TokenKind::Assign)) d.init = expression();
    expect(TokenKind::Semicolon, "';' after the declaration");
    return make_stmt(at_start, std::move(d));
  }

  // A parenthesised condition after `keyword`.
  ExprPtr condition(std::string_view keyword) {
    expect(TokenKind::LeftParen, fmt::format("'(' after '{}'", keyword));
    ExprPtr c = expression();
    expect(TokenKind::RightParen, fmt::format("')' to close the condition of '{}'", keyword));
    return c;
  }

  Stmt if_statement() {
    const Location at_start = next().location;
    If s;
    s.condition = condition("if");
    s.then_branch = std::make_unique<Stmt>(statement());
    if (accept(TokenKind::Else)) s.else_branch = std::make_unique<Stmt>(statement());
    return make_stmt(at_start, std::move(s));
  }

  Stmt while_statement() {
    const Location at_start = next().location;
    While s;
    s.condition = condition("while");
    s.body = block();
    return make_stmt(at_start, std::move(s));
  }

  Stmt do_while_statement() {
    const Location at_start = next().location;
    DoWhile s;
    s.body = block();
    expect(TokenKind::While, "'while' after the block of 'do'");
    s.condition = condition("while");
    expect(TokenKind::Semicolon, "';' after 'do { ... } while (...)'");
    return make_stmt(at_start, std::move(s));
  }

  Stmt forall_statement() {
    const Token& keyword = next();
    Forall s;
    s.parallel = keyword.kind == TokenKind::Forall;
    expect(TokenKind::LeftParen, fmt::format("'(' after '{}'", keyword.text));
    const Token& variable = expect(TokenKind::Identifier, "the loop variable");
    s.variable = variable.text;
    s.variable_location = variable.location;
    expect(TokenKind::In, "'in' after the loop variable");
    s.source = postfix();
    if (at(TokenKind::Dot) && peek(1).kind == TokenKind::Filter) {
      next();
      next();
      expect(TokenKind::LeftParen, "'(' after 'filter'");
      s.filter = expression();
      expect(TokenKind::RightParen, "')' to close the filter");
    }
    expect(TokenKind::RightParen, fmt::format("')' to close the header of '{}'", keyword.text));
    s.body = block();
    return make_stmt(keyword.location, std::move(s));
  }

  Stmt fixed_point_statement() {
    const Location at_start = next().location;
    FixedPoint s;
    expect(TokenKind::Until, "'until' after 'fixedPoint'");
    expect(TokenKind::LeftParen, "'(' after 'until'");
    const Token& variable = expect(TokenKind::Identifier, "the fixed point's variable");
    s.variable = variable.text;
    s.variable_location = variable.location;
    expect(TokenKind::Colon, "':' after the fixed point's variable");
    s.condition = expression();
    expect(TokenKind::RightParen, "')' to close the fixed point's condition");
    s.body = block();
    return make_stmt(at_start, std::move(s));
  }

  Stmt bfs_statement() {
    const Location at_start = next().location;
    IterateInBFS s;
    expect(TokenKind::LeftParen, "'(' after 'iterateInBFS'");
    const Token& variable = expect(TokenKind::Identifier, "the BFS variable");
    s.variable = variable.text;
    s.variable_location = variable.location;
    expect(TokenKind::In, "'in' after the BFS variable");
    s.source = postfix();
    expect(TokenKind::From, "'from' and the BFS's root");
    s.root = expression();
    expect(TokenKind::RightParen, "')' to close the header of 'iterateInBFS'");
    s.body = block();
    if (at(TokenKind::IterateInReverse)) {
      const Location reverse_at = next().location;
      IterateInReverse r;
      if (accept(TokenKind::LeftParen)) {
        r.condition = expression();
        expect(TokenKind::RightParen, "')' to close the condition of 'iterateInReverse'");
      }
      r.body = block();
      s.reverse = std::make_unique<Stmt>(make_stmt(reverse_at, std::move(r)));
    }
    return make_stmt(at_start, std::move(s));
  }

  Stmt return_statement() {
    const Location at_start = next().location;
    Return s;
    if (!at(TokenKind::Semicolon)) s.value = expression();
    expect(TokenKind::Semicolon, "';' after the return value");
    return make_stmt(at_start, std::move(s));
  }

  // NAME or postfix.NAME: what a reduction or an assignment updates.
  ExprPtr lvalue(std::string_view expected) {
    const Token& start = peek();
    if (start.kind != TokenKind::Identifier) fail(expected);
    ExprPtr e = postfix();
    if (!is_lvalue(*e)) fail_with(start.location, fmt::format("expected {}, found {}", expected, to_source(*e)));
    return e;
  }

  // Min(target, value) or Max(target, value), the next tokens; `target` is what the statement
  // updates, which the call must name first.
  Reduction min_max(const Expr& target) {
    Reduction r;
    r.op = next().kind == TokenKind::Min ? ReductionOp::Min : ReductionOp::Max;
    expect(TokenKind::LeftParen, fmt::format("'(' after '{}'", spelling(r.op)));
    const bool was_in_tuple = in_tuple_;
    in_tuple_ = false;
    const Token& first = peek();
    ExprPtr reduced = lvalue(fmt::format("the reduced {} as {}'s first argument", to_source(target), spelling(r.op)));
    if (to_source(*reduced) != to_source(target)) {
      fail_with(first.location, fmt::format("expected the reduced {} as {}'s first argument, found {}",
                                            to_source(target), spelling(r.op), to_source(*reduced)));
    }
    expect(TokenKind::Comma, fmt::format("',' and the value {} reduces with", spelling(r.op)));
    r.value = expression();
    expect(TokenKind::RightParen, fmt::format("')' to close '{}' (it takes two arguments)", spelling(r.op)));
    in_tuple_ = was_in_tuple;
    return r;
  }

  // <t1, t2, ...> = <Min(t1, e), v2, ...>;
  Stmt tuple_reduction() {
    const Location at_start = next().location;
    std::vector<ExprPtr> targets;
    do {
      targets.push_back(lvalue("a variable or a property (like nbr.dist) to update"));
    } while (accept(TokenKind::Comma));
    if (accept(TokenKind::GreaterEqual)) {
      // `<a, b>= <...>`: the lexer read '>' '=' as one token.
    } else {
      expect(TokenKind::Greater, "',' or '>' after a target of the multi-assignment");
      expect(TokenKind::Assign, "'=' after the targets of the multi-assignment");
    }
    const Token& values_open = expect(TokenKind::Less, "'<' to open the values of the multi-assignment");
    if (!at(TokenKind::Min) && !at(TokenKind::Max))
      fail("Min(...) or Max(...) as the first value of a multi-assignment");
    Reduction r = min_max(*targets.front());
    r.form = ReductionForm::Tuple;
    in_tuple_ = true;
    std::vector<ExprPtr> values;
    while (accept(TokenKind::Comma)) values.push_back(expression());
    in_tuple_ = false;
    expect(TokenKind::Greater, "',' or '>' to close the values of the multi-assignment");
    if (values.size() + 1 != targets.size()) {
      fail_with(values_open.location,
                fmt::format("expected {} values to match the targets, found {}", targets.size(), values.size() + 1));
    }
    expect(TokenKind::Semicolon, "';' after the multi-assignment");
    r.target = std::move(targets.front());
    for (std::size_t i = 0; i < values.size(); ++i) {
      r.also.push_back(Assignment{std::move(targets[i + 1]), std::move(values[i]), false});
    }
    return make_stmt(at_start, std::move(r));
  }

  // A statement that starts with a name: an assignment, a reduction or a method call.
  Stmt simple_statement() {
    const Location at_start = peek().location;
    ExprPtr e = postfix();
    const Token& op = peek();
    if (op.kind == TokenKind::Semicolon && e->as<MethodCall>()) {
      next();
      return make_stmt(at_start, CallStatement{std::move(e)});
    }
    const bool updates = op.kind == TokenKind::Assign || compound_op(op.kind) || op.kind == TokenKind::PlusPlus ||
                         op.kind == TokenKind::MinusMinus;
    if (!updates) {
      if (e->as<MethodCall>()) fail(fmt::format("';' after the call {}", to_source(*e)));
      fail(fmt::format("'=', '+=', '-=', '*=', '&&=', '||=', '++' or '--' after {}", to_source(*e)));
    }
    if (!is_lvalue(*e)) {
      fail_with(at_start, fmt::format("expected a variable or a property to update, found {}", to_source(*e)));
    }
    next();
    if (op.kind == TokenKind::Assign) {
      if (at(TokenKind::Min) || at(TokenKind::Max)) {
        Reduction r = min_max(*e);
        r.form = ReductionForm::Call;
        r.target = std::move(e);
        expect(TokenKind::Semicolon, fmt::format("';' after the {} reduction", spelling(r.op)));
        return make_stmt(at_start, std::move(r));
      }
      Assignment a{std::move(e), expression(), false};
      expect(TokenKind::Semicolon, "';' after the assignment");
      return make_stmt(at_start, std::move(a));
    }
    Reduction r;
    r.target = std::move(e);
    if (auto compound = compound_op(op.kind)) {
      r.op = *compound;
      r.form = ReductionForm::Compound;
      r.value = expression();
    } else {
      r.op = op.kind == TokenKind::PlusPlus ? ReductionOp::Add : ReductionOp::Subtract;
      r.form = ReductionForm::Step;
      r.value = make_expr(op.location, IntLiteral{1});
    }
    expect(TokenKind::Semicolon, fmt::format("';' after '{}'", op.text));
    return make_stmt(at_start, std::move(r));
  }

  // ---- expressions
  ExprPtr expression() { return binary(0); }

  ExprPtr binary(int level) {
    if (level == kBinaryLevels) return unary();
    ExprPtr left = binary(level + 1);
    for (;;) {
      const Token& t = peek();
      const auto op = binary_op(t.kind, level);
      if (!op) return left;
      if (in_tuple_ && (t.kind == TokenKind::Greater || t.kind == TokenKind::GreaterEqual)) return left;
      next();
      ExprPtr right = binary(level + 1);
      const Location start = left->location;
      left = make_expr(start, Binary{*op, t.location, std::move(left), std::move(right)});
    }
  }

  ExprPtr unary() {
    const Token& t = peek();
    if (t.kind == TokenKind::Bang || t.kind == TokenKind::Minus) {
      next();
      return make_expr(t.location, Unary{t.kind == TokenKind::Bang ? UnaryOp::Not : UnaryOp::Negate, unary()});
    }
    return postfix();
  }

  ExprPtr postfix() {
    ExprPtr e = primary();
    while (at(TokenKind::Dot) && peek(1).kind != TokenKind::Filter) {
      next();
      const Token& name = expect(TokenKind::Identifier, "a property or a method after '.'");
      const Location start = e->location;
      if (at(TokenKind::LeftParen)) {
        MethodCall call;
        call.object = std::move(e);
        call.method = name.text;
        call.method_location = name.location;
        call.arguments = arguments();
        e = make_expr(start, std::move(call));
      } else {
        e = make_expr(start, PropertyRef{std::move(e), name.text, name.location, nullptr});
      }
    }
    return e;
  }

  std::vector<Argument> arguments() {
    expect(TokenKind::LeftParen);
    const bool was_in_tuple = in_tuple_;
    in_tuple_ = false;
    std::vector<Argument> args;
    if (!at(TokenKind::RightParen)) {
      do {
        Argument a;
        a.location = peek().location;
        if (at(TokenKind::Identifier) && peek(1).kind == TokenKind::Assign) {
          a.name = next().text;
          next();
        }
        a.value = expression();
        args.push_back(std::move(a));
      } while (accept(TokenKind::Comma));
    }
    expect(TokenKind::RightParen, "',' or ')' after an argument");
    in_tuple_ = was_in_tuple;
    return args;
  }

  ExprPtr primary() {
    const Token& t = peek();
    switch (t.kind) {
      case TokenKind::IntegerLiteral: {
        next();
        return make_expr(t.location, IntLiteral{number<std::int64_t>(t.text)});
      }
      case TokenKind::RealLiteral: {
        next();
        return make_expr(t.location, RealLiteral{number<double>(t.text), t.text});
      }
      case TokenKind::True:
      case TokenKind::False:
        next();
        return make_expr(t.location, BoolLiteral{t.kind == TokenKind::True});
      case TokenKind::Inf:
        next();
        return make_expr(t.location, InfLiteral{});
      case TokenKind::Identifier:
        if (peek(1).kind == TokenKind::LeftParen) {
          fail_with(t.location, fmt::format("expected a graph method call like g.num_nodes(), found a call of "
                                            "function '{}' (the language has no function calls)",
                                            t.text));
        }
        next();
        return make_expr(t.location, NameRef{t.text, nullptr});
      case TokenKind::LeftParen: {
        next();
        const bool was_in_tuple = in_tuple_;
        in_tuple_ = false;
        ExprPtr inner = expression();
        in_tuple_ = was_in_tuple;
        expect(TokenKind::RightParen, "')' to close '('");
        return inner;
      }
      case TokenKind::Min:
      case TokenKind::Max:
        fail(fmt::format("an expression ({0} reduces: write x = {0}(x, e); or <x, y> = <{0}(x, e), v>;)", t.text));
      default:
        fail("an expression");
    }
  }

  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  std::string file_;
  bool in_tuple_ = false;  // parsing a multi-assignment's values: '>' closes them
};

}  // namespace

Program parse(std::vector<Token> tokens, std::string file) {
  return Parser(std::move(tokens), std::move(file)).program();
}

Program parse(std::string_view source, std::string file) {
  std::vector<Token> tokens = lex(source, file);
  return parse(std::move(tokens), std::move(file));
}

}  // namespace courier::dsl
