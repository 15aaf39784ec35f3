// The parser: the AST it builds (through its dump) and the place and wording of its errors.
#include "courier/dsl/parser.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "courier/dsl/ast_dump.hpp"
#include "dsl/compile_errors.hpp"

namespace courier::dsl {
namespace parser_test {

std::string dump(std::string_view source) { return dump_ast(parse(source, "t.sp")); }

std::string parse_error(std::string_view source) {
  return testing::where_and_what(testing::error_of([](std::string_view s) { parse(s, "t.sp"); }, source));
}

TEST(Parser, FunctionParametersAndDeclarations) {
  EXPECT_EQ(dump("function f(Graph g, propNode<int> dist, propEdge<float> w, node src, SetN<g> s) {\n"
                 "  int x = 1;\n  propNode<bool> modified;\n  edge e;\n}"),
            "Function f(Graph g, propNode<int> dist, propEdge<float> w, node src, SetN<g> s)  @1:1\n"
            "  Declaration int x = 1  @2:3\n"
            "  Declaration propNode<bool> modified  @3:3\n"
            "  Declaration edge e  @4:3\n");
}

TEST(Parser, PrecedenceAndAssociativity) {
  EXPECT_EQ(
      dump("function f() { x = a + b * c - d / e % f; y = !a && b || c == d < e; z = -a - -b; w = (a + b) * c; }"),
      "Function f()  @1:1\n"
      "  Assignment x = (a + (b * c)) - ((d / e) % f)  @1:16\n"
      "  Assignment y = (!a && b) || (c == (d < e))  @1:43\n"
      "  Assignment z = -a - -b  @1:70\n"
      "  Assignment w = (a + b) * c  @1:83\n");
}

TEST(Parser, MethodCallsAndProperties) {
  EXPECT_EQ(dump("function f(Graph g) {\n g.attachNodeProperty(dist = INF, modified = False);\n"
                 " edge e = g.get_edge(u, v);\n x = e.weight + g.num_nodes() + g.count_outNbrs(v);\n"
                 " b = g.is_an_edge(u, v) && v.modified;\n}"),
            "Function f(Graph g)  @1:1\n"
            "  Call g.attachNodeProperty(dist = INF, modified = False)  @2:2\n"
            "  Declaration edge e = g.get_edge(u, v)  @3:2\n"
            "  Assignment x = (e.weight + g.num_nodes()) + g.count_outNbrs(v)  @4:2\n"
            "  Assignment b = g.is_an_edge(u, v) && v.modified  @5:2\n");
}

TEST(Parser, Reductions) {
  EXPECT_EQ(dump("function f() {\n a += 1; v.x -= 2; b *= c; ok &&= v.y; any ||= False; count++; left--;\n"
                 " v.dist = Min(v.dist, u.dist + 1);\n"
                 " <nbr.dist, nbr.modified> = <Min(nbr.dist, v.dist + e.weight), True>;\n"
                 " <a.b, a.c, a.d>= <Max(a.b, 3), (x > y), 4>;\n}"),
            "Function f()  @1:1\n"
            "  Reduction a += 1  @2:2\n"
            "  Reduction v.x -= 2  @2:10\n"
            "  Reduction b *= c  @2:20\n"
            "  Reduction ok &&= v.y  @2:28\n"
            "  Reduction any ||= False  @2:40\n"
            "  Reduction count += 1  @2:55\n"
            "  Reduction left -= 1  @2:64\n"
            "  Reduction v.dist Min u.dist + 1  @3:2\n"
            "  Reduction nbr.dist Min v.dist + e.weight, then nbr.modified = True  @4:2\n"
            "  Reduction a.b Max 3, then a.c = x > y, then a.d = 4  @5:2\n");
}

TEST(Parser, ControlFlow) {
  EXPECT_EQ(dump("function f() {\n if (a) x = 1; else { x = 2; }\n while (x < 3) { x++; }\n"
                 " do { x--; } while (x > 0 && y);\n if (b) { return x; }\n return;\n}"),
            "Function f()  @1:1\n"
            "  If a  @2:2\n"
            "    Assignment x = 1  @2:9\n"
            "  Else  @2:21\n"
            "    Assignment x = 2  @2:23\n"
            "  While x < 3  @3:2\n"
            "    Reduction x += 1  @3:18\n"
            "  DoWhile (x > 0) && y  @4:2\n"
            "    Reduction x -= 1  @4:7\n"
            "  If b  @5:2\n"
            "    Return x  @5:11\n"
            "  Return  @6:2\n");
}

TEST(Parser, LoopsFixedPointAndBfs) {
  EXPECT_EQ(dump("function f(Graph g) {\n"
                 " fixedPoint until (done : !modified) {\n"
                 "  forall (v in g.nodes().filter(modified == True)) {\n"
                 "   for (nbr in g.neighbors(v)) { nbr.x += 1; }\n"
                 "   forall (w in g.nodes_to(v).filter(w < v)) { }\n"
                 "  }\n"
                 " }\n"
                 " for (s in sources) {\n"
                 "  iterateInBFS (v in g.nodes() from s) { v.y = 1; }\n"
                 "  iterateInReverse (v != s) { v.y = 2; }\n"
                 "  iterateInBFS (v in g.nodes() from s) { }\n"
                 " }\n"
                 "}"),
            "Function f(Graph g)  @1:1\n"
            "  FixedPoint done until !modified  @2:2\n"
            "    Forall v in g.nodes() filter modified == True  @3:3\n"
            "      For nbr in g.neighbors(v)  @4:4\n"
            "        Reduction nbr.x += 1  @4:34\n"
            "      Forall w in g.nodes_to(v) filter w < v  @5:4\n"
            "  For s in sources  @8:2\n"
            "    IterateInBFS v in g.nodes() from s  @9:3\n"
            "      Assignment v.y = 1  @9:42\n"
            "    IterateInReverse v != s  @10:3\n"
            "      Assignment v.y = 2  @10:31\n"
            "    IterateInBFS v in g.nodes() from s  @11:3\n");
}

TEST(Parser, SeveralFunctions) {
  const Program p = parse("function a() {}\n/* between */ function b(int x) { return x; }", "two.sp");
  ASSERT_EQ(p.functions.size(), 2u);
  EXPECT_EQ(p.file, "two.sp");
  EXPECT_EQ(p.functions[1].name, "b");
  EXPECT_EQ(p.functions[1].location, (Location{2, 15}));
  EXPECT_EQ(p.functions[1].parameters[0].type, Type::of(TypeKind::Int));
}

TEST(Parser, TheAstHoldsWhatWasWritten) {
  const Program p = parse("function f() { <n.d, n.m> = <Min(n.d, 1), True>; }", "t.sp");
  const Reduction* r = p.functions[0].body.statements[0].as<Reduction>();
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->op, ReductionOp::Min);
  EXPECT_EQ(r->form, ReductionForm::Tuple);
  EXPECT_EQ(to_source(*r->target), "n.d");
  EXPECT_EQ(r->target->as<PropertyRef>()->property_location, (Location{1, 19}));
  ASSERT_EQ(r->also.size(), 1u);
  EXPECT_EQ(to_source(*r->also[0].value), "True");
}

// ---- malformed programs: each with the exact place and message of its error.

TEST(ParserErrors, EmptyProgram) {
  EXPECT_EQ(parse_error("  // nothing\n"), "2:1: expected 'function', found end of file");
}

TEST(ParserErrors, MissingFunctionName) {
  EXPECT_EQ(parse_error("function (Graph g) {}"), "1:10: expected the function's name, found '('");
}

TEST(ParserErrors, BadParameterType) {
  EXPECT_EQ(parse_error("function f(Graph g, string s) {}"),
            "1:21: expected a parameter's type, found identifier 'string'");
}

TEST(ParserErrors, MissingCommaBetweenParameters) {
  EXPECT_EQ(parse_error("function f(Graph g node s) {}"), "1:20: expected ',' or ')' after a parameter, found 'node'");
}

TEST(ParserErrors, PropertyOfEdgeType) {
  EXPECT_EQ(parse_error("function f(Graph g) {\n  propNode<edge> p;\n}"),
            "2:12: expected a property's value type (int, long, float, double, bool or node), found 'edge'");
}

TEST(ParserErrors, UnclosedPropertyType) {
  EXPECT_EQ(parse_error("function f(Graph g) {\n  propNode<int p;\n}"),
            "2:16: expected '>' to close 'propNode<int', found identifier 'p'");
}

TEST(ParserErrors, MissingSemicolon) {
  EXPECT_EQ(parse_error("function f() {\n  int x = 1\n  x = 2;\n}"),
            "3:3: expected ';' after the declaration, found identifier 'x'");
}

TEST(ParserErrors, UnclosedBlock) {
  EXPECT_EQ(parse_error("function f() {\n  int x = 1;\n"), "3:1: expected a statement or '}', found end of file");
}

TEST(ParserErrors, ForallWithoutIn) {
  EXPECT_EQ(parse_error("function f(Graph g) {\n  forall (v of g.nodes()) { }\n}"),
            "2:13: expected 'in' after the loop variable, found identifier 'of'");
}

TEST(ParserErrors, ForallHeaderNotClosed) {
  EXPECT_EQ(parse_error("function f(Graph g) {\n  forall (v in g.nodes() { }\n}"),
            "2:26: expected ')' to close the header of 'forall', found '{'");
}

TEST(ParserErrors, ForallBodyMustBeABlock) {
  EXPECT_EQ(parse_error("function f(Graph g) {\n  forall (v in g.nodes()) v.x = 1;\n}"),
            "2:27: expected '{', found identifier 'v'");
}

TEST(ParserErrors, FixedPointWithoutUntil) {
  EXPECT_EQ(parse_error("function f() {\n  fixedPoint (done : !m) { }\n}"),
            "2:14: expected 'until' after 'fixedPoint', found '('");
}

TEST(ParserErrors, FixedPointWithoutColon) {
  EXPECT_EQ(parse_error("function f() {\n  fixedPoint until (done !m) { }\n}"),
            "2:26: expected ':' after the fixed point's variable, found '!'");
}

TEST(ParserErrors, BfsWithoutFrom) {
  EXPECT_EQ(parse_error("function f(Graph g) {\n  iterateInBFS (v in g.nodes()) { }\n}"),
            "2:31: expected 'from' and the BFS's root, found ')'");
}

TEST(ParserErrors, ReverseWithoutBfs) {
  EXPECT_EQ(parse_error("function f() {\n  iterateInReverse { }\n}"),
            "2:3: expected a statement (iterateInReverse follows the block of an iterateInBFS), found "
            "'iterateInReverse'");
}

TEST(ParserErrors, MinNotAsReduction) {
  EXPECT_EQ(
      parse_error("function f() {\n  x = 1 + Min(a, b);\n}"),
      "2:11: expected an expression (Min reduces: write x = Min(x, e); or <x, y> = <Min(x, e), v>;), found 'Min'");
}

TEST(ParserErrors, MinFirstArgumentIsNotTheTarget) {
  EXPECT_EQ(parse_error("function f() {\n  <nbr.dist, nbr.modified> = <Min(v.dist, 1), True>;\n}"),
            "2:35: expected the reduced nbr.dist as Min's first argument, found v.dist");
}

TEST(ParserErrors, MinWithOneArgument) {
  EXPECT_EQ(parse_error("function f() {\n  v.d = Min(v.d);\n}"),
            "2:16: expected ',' and the value Min reduces with, found ')'");
}

TEST(ParserErrors, TupleCountsDiffer) {
  EXPECT_EQ(parse_error("function f() {\n  <n.d, n.m> = <Min(n.d, 1), True, False>;\n}"),
            "2:16: expected 2 values to match the targets, found 3");
}

TEST(ParserErrors, TupleWithoutMin) {
  EXPECT_EQ(parse_error("function f() {\n  <n.d, n.m> = <1, True>;\n}"),
            "2:17: expected Min(...) or Max(...) as the first value of a multi-assignment, found number 1");
}

TEST(ParserErrors, TupleTargetNotAnLvalue) {
  EXPECT_EQ(parse_error("function f() {\n  <3, n.m> = <Min(n.d, 1), True>;\n}"),
            "2:4: expected a variable or a property (like nbr.dist) to update, found number 3");
}

TEST(ParserErrors, ExpressionWithoutEffect) {
  EXPECT_EQ(parse_error("function f() {\n  x + 1;\n}"),
            "2:5: expected '=', '+=', '-=', '*=', '&&=', '||=', '++' or '--' after x, found '+'");
}

TEST(ParserErrors, AssignToACall) {
  EXPECT_EQ(parse_error("function f(Graph g) {\n  g.num_nodes() = 3;\n}"),
            "2:3: expected a variable or a property to update, found g.num_nodes()");
}

TEST(ParserErrors, FunctionCall) {
  EXPECT_EQ(parse_error("function f() {\n  x = sqrt(2);\n}"),
            "2:7: expected a graph method call like g.num_nodes(), found a call of function 'sqrt' (the language has "
            "no function calls)");
}

TEST(ParserErrors, MissingOperand) {
  EXPECT_EQ(parse_error("function f() {\n  x = (a + ) * 2;\n}"), "2:12: expected an expression, found ')'");
}

TEST(ParserErrors, DoWithoutSemicolon) {
  EXPECT_EQ(parse_error("function f() {\n  do { x++; } while (x < 3)\n}"),
            "3:1: expected ';' after 'do { ... } while (...)', found '}'");
}

TEST(ParserErrors, ElseWithoutIf) {
  EXPECT_EQ(parse_error("function f() {\n  else { }\n}"),
            "2:3: expected a statement ('else' follows the statement of an 'if'), found 'else'");
}

TEST(ParserErrors, NamedArgumentNeedsAName) {
  EXPECT_EQ(parse_error("function f(Graph g) {\n  g.attachNodeProperty(dist = INF modified = False);\n}"),
            "2:35: expected ',' or ')' after an argument, found identifier 'modified'");
}

TEST(ParserErrors, ComparisonInTupleValuesNeedsParentheses) {
  EXPECT_EQ(parse_error("function f() {\n  <n.d, n.m> = <Min(n.d, 1), a > b>;\n}"),
            "2:34: expected ';' after the multi-assignment, found identifier 'b'");
}

TEST(ParserErrors, LexerErrorsComeThroughParse) {
  EXPECT_EQ(parse_error("function f() {\n  x = 1 @ 2;\n}"), "2:9: expected a token, found '@'");
}

}  // namespace parser_test
}  // namespace courier::dsl
