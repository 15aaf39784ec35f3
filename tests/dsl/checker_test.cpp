// The type checker: what it resolves and annotates, and the place and wording of every kind of
// error it reports.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "courier/dsl/front_end.hpp"
#include "dsl/compile_errors.hpp"

namespace courier::dsl {
namespace checker_test {

// A function with the usual parameters around `body`, which starts on line 2.
std::string in_function(std::string_view body) {
  return "function f(Graph g, propNode<int> dist, propEdge<int> weight, node src) {\n" + std::string(body) + "\n}\n";
}

std::string check_error(std::string_view body) {
  const std::string source = in_function(body);
  return testing::where_and_what(testing::error_of([](std::string_view s) { front_end(s, "t.sp"); }, source));
}

std::string program_error(std::string_view source) {
  return testing::where_and_what(testing::error_of([](std::string_view s) { front_end(s, "t.sp"); }, source));
}

const Stmt& nth(const Block& b, std::size_t i) { return b.statements.at(i); }

TEST(Checker, ResolvesNamesTypesAndDomains) {
  const Program p = front_end(in_function("propNode<bool> modified;\n"
                                          "forall (v in g.nodes().filter(modified == True)) {\n"
                                          "  forall (nbr in g.neighbors(v)) {\n"
                                          "    edge e = g.get_edge(v, nbr);\n"
                                          "    <nbr.dist, nbr.modified> = <Min(nbr.dist, v.dist + e.weight), True>;\n"
                                          "  }\n"
                                          "}"),
                              "t.sp");
  const Function& f = p.functions.at(0);
  const Forall& outer = *nth(f.body, 1).as<Forall>();
  EXPECT_EQ(outer.domain, DomainKind::Nodes);
  EXPECT_EQ(outer.of, nullptr);
  ASSERT_NE(outer.symbol, nullptr);
  EXPECT_EQ(outer.symbol->kind, SymbolKind::LoopVariable);
  EXPECT_EQ(outer.symbol->vertex_depth, 1u);
  EXPECT_FALSE(nth(f.body, 1).per_vertex);

  // The bare property in the filter became the loop variable's.
  const auto* filter = outer.filter->as<Binary>();
  ASSERT_NE(filter, nullptr);
  const auto* modified = filter->left->as<PropertyRef>();
  ASSERT_NE(modified, nullptr);
  EXPECT_EQ(to_source(*filter->left), "v.modified");
  EXPECT_EQ(modified->symbol, nth(f.body, 0).as<Declaration>()->symbol);
  EXPECT_EQ(modified->element->as<NameRef>()->symbol, outer.symbol);

  const Stmt& inner_statement = nth(outer.body, 0);
  EXPECT_TRUE(inner_statement.per_vertex);
  const Forall& inner = *inner_statement.as<Forall>();
  EXPECT_EQ(inner.domain, DomainKind::OutNeighbors);
  ASSERT_NE(inner.of, nullptr);
  EXPECT_EQ(inner.of->as<NameRef>()->symbol, outer.symbol);

  const Reduction& r = *nth(inner.body, 1).as<Reduction>();
  EXPECT_EQ(r.scope, ReductionTarget::Property);
  EXPECT_EQ(r.target->as<PropertyRef>()->symbol, f.parameters[1].symbol);
  EXPECT_EQ(r.value->type, Type::of(TypeKind::Int));
  EXPECT_EQ(r.value->as<Binary>()->right->type, Type::of(TypeKind::Int));
  EXPECT_EQ(r.value->as<Binary>()->right->as<PropertyRef>()->symbol, f.parameters[2].symbol);
  EXPECT_EQ(r.also.at(0).target->type, Type::of(TypeKind::Bool));

  const auto& get_edge = *nth(inner.body, 0).as<Declaration>()->init->as<MethodCall>();
  EXPECT_EQ(get_edge.resolved, GraphMethod::GetEdge);
}

TEST(Checker, NumbersWiden) {
  const Program p = front_end(in_function("long n = g.num_nodes();\ndouble x = n / 2;\nfloat y = 0.5;\nint z = -3;\n"
                                          "double w = y + z;\nlong big = 5000000000;\nint d = INF;"),
                              "t.sp");
  const Block& body = p.functions[0].body;
  EXPECT_EQ(nth(body, 1).as<Declaration>()->init->type, Type::of(TypeKind::Long));
  EXPECT_EQ(nth(body, 4).as<Declaration>()->init->type, Type::of(TypeKind::Float));
  EXPECT_EQ(nth(body, 5).as<Declaration>()->init->type, Type::of(TypeKind::Long));
  EXPECT_EQ(nth(body, 6).as<Declaration>()->init->type, Type::of(TypeKind::Infinity));
}

// A double rounds into a float, as in StarPlat (pagerank_float_shares keeps its shares so); into
// an int or a long it would lose more than precision, and stays an error (CheckerErrors).
TEST(Checker, ADoubleNarrowsToAFloat) {
  const Program p = front_end(in_function("double d = 0.5;\nfloat f = d * 2;\nf = d;"), "t.sp");
  const Block& body = p.functions[0].body;
  EXPECT_EQ(nth(body, 1).as<Declaration>()->init->type, Type::of(TypeKind::Double));
  EXPECT_EQ(nth(body, 2).as<Assignment>()->value->type, Type::of(TypeKind::Double));
}

TEST(Checker, ReductionsAreSharedPrivateOrOnProperties) {
  const Program p = front_end(in_function("long total = 0;\n"
                                          "forall (v in g.nodes()) {\n"
                                          "  int mine = 0;\n"
                                          "  for (n in g.neighbors(v)) { mine += 1; n.dist += 1; }\n"
                                          "  total += mine;\n"
                                          "}\n"
                                          "total++;"),
                              "t.sp");
  const Block& body = p.functions[0].body;
  const Forall& loop = *nth(body, 1).as<Forall>();
  const Forall& neighbours = *nth(loop.body, 1).as<Forall>();
  EXPECT_EQ(nth(neighbours.body, 0).as<Reduction>()->scope, ReductionTarget::Private);
  EXPECT_EQ(nth(neighbours.body, 1).as<Reduction>()->scope, ReductionTarget::Property);
  EXPECT_EQ(nth(loop.body, 2).as<Reduction>()->scope, ReductionTarget::Shared);
  EXPECT_EQ(nth(body, 2).as<Reduction>()->scope, ReductionTarget::Private);  // collective: a plain update
}

TEST(Checker, ScopesEndWithTheirBlocks) {
  EXPECT_NO_THROW(
      front_end(in_function("int x = 1;\n{ int y = x; int z = y; }\nif (x > 0) { int y = 2; } else { int y = 3; }\n"
                            "forall (v in g.nodes()) { int x = 4; }"),
                "t.sp"));
  EXPECT_EQ(check_error("{ int y = 1; }\nint x = y;"), "3:9: expected a declared name, found undeclared 'y'");
}

TEST(Checker, FixedPointConditionReadsEachNode) {
  const Program p = front_end(in_function("propNode<bool> m;\nbool done = False;\n"
                                          "fixedPoint until (done : !m) { forall (v in g.nodes()) { v.m = False; } }"),
                              "t.sp");
  const FixedPoint& fp = *nth(p.functions[0].body, 2).as<FixedPoint>();
  EXPECT_EQ(fp.symbol->type, Type::of(TypeKind::Bool));
  const Expr& m = *fp.condition->as<Unary>()->operand;
  EXPECT_EQ(m.type, Type::of(TypeKind::Bool));  // one node's value
  EXPECT_EQ(m.as<NameRef>()->symbol->type, Type::property(TypeKind::NodeProperty, TypeKind::Bool));
}

TEST(Checker, ReturnTypeAndBfsVariable) {
  const Program p = front_end(
      "function f(Graph g, node s) {\n  propNode<int> d;\n"
      "  iterateInBFS (v in g.nodes() from s) { v.d = 1; }\n"
      "  iterateInReverse (v != s) { v.d = 2; }\n  return 1;\n}",
      "t.sp");
  const Function& f = p.functions[0];
  EXPECT_EQ(f.result, Type::of(TypeKind::Int));
  const IterateInBFS& bfs = *nth(f.body, 1).as<IterateInBFS>();
  const auto& reverse = *bfs.reverse->as<IterateInReverse>();
  EXPECT_EQ(reverse.condition->as<Binary>()->left->as<NameRef>()->symbol, bfs.symbol);
  EXPECT_TRUE(nth(reverse.body, 0).per_vertex);
  EXPECT_FALSE(bfs.reverse->per_vertex);
}

// ---- malformed programs: each with the exact place and message of its error.

TEST(CheckerErrors, UndeclaredName) {
  EXPECT_EQ(check_error("int x = 1;\nx = x + y;"), "3:9: expected a declared name, found undeclared 'y'");
}

TEST(CheckerErrors, UndeclaredProperty) {
  EXPECT_EQ(check_error("forall (v in g.nodes()) {\n  v.distance = 1;\n}"),
            "3:5: expected a declared property after 'v.', found undeclared 'distance'");
}

TEST(CheckerErrors, NotAProperty) {
  EXPECT_EQ(check_error("int level = 0;\nsrc.level = 1;"), "3:5: expected a property after 'src.', found int 'level'");
}

TEST(CheckerErrors, DeclarationTypeMismatch) {
  EXPECT_EQ(check_error("int x = 0.5;"), "2:9: expected int, found double 0.5");
}

TEST(CheckerErrors, NarrowingIsAMismatch) {
  EXPECT_EQ(check_error("int n = g.num_nodes();"), "2:9: expected int, found long g.num_nodes()");
  EXPECT_EQ(check_error("double d = 0.5;\nlong n = d;"), "3:10: expected long, found double d");
}

TEST(CheckerErrors, LiteralTooLargeForAnInt) {
  EXPECT_EQ(check_error("long big = 5000000000;\nint small = 5000000000;"),
            "3:13: expected int, found long 5000000000");
}

TEST(CheckerErrors, BoolIsNotANumber) {
  EXPECT_EQ(check_error("int x = 1;\nx = x + True;"), "3:9: expected a number on the right of '+', found bool True");
}

TEST(CheckerErrors, NodeArithmetic) {
  EXPECT_EQ(check_error("forall (v in g.nodes()) {\n  int x = v + 1;\n}"),
            "3:11: expected a number on the left of '+', found node v");
}

TEST(CheckerErrors, ComparingDifferentKinds) {
  EXPECT_EQ(check_error("int x = 1;\nbool b = x == True;"),
            "3:15: expected a number on the right of '==' to compare with int x, found bool True");
}

TEST(CheckerErrors, IfConditionNotBool) {
  EXPECT_EQ(check_error("int x = 1;\nif (x) { x = 2; }"), "3:5: expected a bool condition for 'if', found int x");
}

TEST(CheckerErrors, ReductionOnANode) {
  EXPECT_EQ(check_error("forall (v in g.nodes()) {\n  v += 1;\n}"),
            "3:3: expected a property (like v.dist) or a number or bool variable as the target of '+=', found loop "
            "variable node 'v'");
}

TEST(CheckerErrors, ReductionOnAWholeProperty) {
  EXPECT_EQ(check_error("dist += 1;"),
            "2:1: expected a property (like v.dist) or a number or bool variable as the target of '+=', found "
            "propNode<int> 'dist'");
}

TEST(CheckerErrors, MinOnABool) {
  EXPECT_EQ(check_error("bool ok = True;\nok = Min(ok, False);"),
            "3:1: expected a number or a node to reduce with Min, found bool ok");
}

TEST(CheckerErrors, AndAssignOnANumber) {
  EXPECT_EQ(check_error("forall (v in g.nodes()) {\n  v.dist &&= True;\n}"),
            "3:3: expected a bool to reduce with '&&=', found int v.dist");
}

TEST(CheckerErrors, ReductionValueMismatch) {
  EXPECT_EQ(check_error("forall (v in g.nodes()) {\n  v.dist += 0.5;\n}"), "3:13: expected int, found double 0.5");
}

TEST(CheckerErrors, MultiAssignmentOfAnotherElement) {
  EXPECT_EQ(check_error("propNode<bool> m;\nforall (v in g.nodes()) {\n  forall (nbr in g.neighbors(v)) {\n"
                        "    <nbr.dist, v.m> = <Min(nbr.dist, v.dist + 1), True>;\n  }\n}"),
            "5:16: expected a property of nbr (the element Min updates) as a target of the multi-assignment, found "
            "bool v.m");
}

TEST(CheckerErrors, MultiAssignmentOfAScalar) {
  EXPECT_EQ(check_error("int x = 0;\nbool y = False;\n<x, y> = <Min(x, 3), True>;"),
            "4:2: expected a property (like nbr.dist) as the first target of a multi-assignment, found int x");
}

TEST(CheckerErrors, FixedPointOnANonBool) {
  EXPECT_EQ(check_error("propNode<bool> m;\nint finished = 0;\nfixedPoint until (finished : !m) { }"),
            "4:19: expected a bool variable for fixedPoint, found int 'finished'");
}

TEST(CheckerErrors, FixedPointOnAnUndeclaredVariable) {
  EXPECT_EQ(check_error("propNode<bool> m;\nfixedPoint until (done : !m) { }"),
            "3:19: expected a bool variable for fixedPoint, found undeclared 'done'");
}

TEST(CheckerErrors, FixedPointConditionNotBool) {
  EXPECT_EQ(check_error("bool done = False;\nfixedPoint until (done : dist) { }"),
            "3:26: expected a bool condition for 'fixedPoint', found int dist");
}

TEST(CheckerErrors, FixedPointConditionWithoutProperties) {
  EXPECT_EQ(check_error("bool done = False;\nfixedPoint until (done : !done) { }"),
            "3:26: expected a condition on node properties (like !modified) for fixedPoint, found !done");
}

TEST(CheckerErrors, VertexForallInsideAVertexForall) {
  EXPECT_EQ(check_error("forall (v in g.nodes()) {\n  forall (u in g.nodes()) { }\n}"),
            "3:3: expected a forall over g.nodes() outside vertex loops, found it inside the forall at 2:1 (it is "
            "collective: every rank runs it once for the whole graph, not per vertex)");
}

TEST(CheckerErrors, VertexForallInsideANeighbourLoop) {
  EXPECT_EQ(
      check_error("forall (v in g.nodes()) {\n  for (n in g.neighbors(v)) {\n    forall (u in g.nodes()) { }\n  }\n}"),
      "4:5: expected a forall over g.nodes() outside vertex loops, found it inside the for at 3:3 (it is "
      "collective: every rank runs it once for the whole graph, not per vertex)");
}

TEST(CheckerErrors, NeighboursOfANeighbour) {
  EXPECT_EQ(check_error("forall (v in g.nodes()) {\n  forall (n in g.neighbors(v)) {\n"
                        "    forall (m in g.neighbors(n)) { }\n  }\n}"),
            "4:30: expected the variable of an enclosing vertex loop (v) as the node whose neighbours to visit, "
            "found node n (its edges may be on another rank)");
}

TEST(CheckerErrors, NeighbourLoopOutsideAVertexLoop) {
  EXPECT_EQ(check_error("for (n in g.neighbors(src)) { }"),
            "2:11: expected a loop over g.neighbors(...) inside a vertex loop (like forall (v in g.nodes())), found it "
            "outside any (no rank holds the edges of every node)");
}

TEST(CheckerErrors, FixedPointInsideAForall) {
  EXPECT_EQ(check_error("propNode<bool> m;\nbool done = False;\nforall (v in g.nodes()) {\n"
                        "  fixedPoint until (done : !m) { }\n}"),
            "5:3: expected fixedPoint outside vertex loops, found it inside the forall at 4:1 (it is collective: "
            "every rank runs it once for the whole graph, not per vertex)");
}

TEST(CheckerErrors, PropertyDeclaredInsideAForall) {
  EXPECT_EQ(check_error("forall (v in g.nodes()) {\n  propNode<int> p;\n}"),
            "3:3: expected a property declaration outside vertex loops, found it inside the forall at 2:1 (it is "
            "collective: every rank runs it once for the whole graph, not per vertex)");
}

TEST(CheckerErrors, AttachInsideAForall) {
  EXPECT_EQ(check_error("forall (v in g.nodes()) {\n  g.attachNodeProperty(dist = 0);\n}"),
            "3:3: expected g.attachNodeProperty outside vertex loops, found it inside the forall at 2:1 (it is "
            "collective: every rank runs it once for the whole graph, not per vertex)");
}

TEST(CheckerErrors, EdgePropertyOnANode) {
  EXPECT_EQ(check_error("forall (v in g.nodes()) {\n  int w = v.weight;\n}"),
            "3:13: expected a node property after 'v' (a node), found propEdge<int> 'weight'");
}

TEST(CheckerErrors, NodePropertyOnAnEdge) {
  EXPECT_EQ(check_error("forall (v in g.nodes()) {\n  forall (n in g.neighbors(v)) {\n"
                        "    edge e = g.get_edge(v, n);\n    int d = e.dist;\n  }\n}"),
            "5:15: expected an edge property after 'e' (an edge), found propNode<int> 'dist'");
}

TEST(CheckerErrors, PropertyOfANumber) {
  EXPECT_EQ(check_error("int x = 1;\nint y = x.dist;"), "3:9: expected a node or an edge before '.dist', found int x");
}

TEST(CheckerErrors, TooFewArguments) {
  EXPECT_EQ(check_error("forall (v in g.nodes()) {\n  edge e = g.get_edge(v);\n}"),
            "3:14: expected 2 arguments (u, v) for g.get_edge, found 1");
}

TEST(CheckerErrors, TooManyArguments) {
  EXPECT_EQ(check_error("long n = g.num_nodes(src);"), "2:12: expected no arguments for g.num_nodes(), found 1");
}

TEST(CheckerErrors, NeighborsWithoutAVertex) {
  EXPECT_EQ(check_error("forall (v in g.nodes()) {\n  forall (n in g.neighbors()) { }\n}"),
            "3:18: expected 1 argument (v) for g.neighbors, found 0");
}

TEST(CheckerErrors, ArgumentOfTheWrongType) {
  EXPECT_EQ(check_error("long d = g.count_outNbrs(3);"),
            "2:26: expected a node as argument 1 of g.count_outNbrs, found int 3");
}

TEST(CheckerErrors, UnknownMethod) {
  EXPECT_EQ(check_error("long d = g.degree(src);"),
            "2:12: expected a graph method (nodes, neighbors, nodes_to, get_edge, num_nodes, num_edges, count_outNbrs, "
            "count_inNbrs, is_an_edge, attachNodeProperty, attachEdgeProperty), found 'degree'");
}

TEST(CheckerErrors, MethodOfANode) {
  EXPECT_EQ(check_error("forall (v in g.nodes()) {\n  for (n in v.neighbors()) { }\n}"),
            "3:13: expected a Graph before '.neighbors', found node v");
}

TEST(CheckerErrors, AttachAnEdgeProperty) {
  EXPECT_EQ(check_error("g.attachNodeProperty(dist = 0, weight = 1);"),
            "2:32: expected a node property for g.attachNodeProperty, found propEdge<int> 'weight'");
}

TEST(CheckerErrors, AttachWithAMismatchedValue) {
  EXPECT_EQ(check_error("g.attachNodeProperty(dist = False);"), "2:29: expected int, found bool False");
}

TEST(CheckerErrors, AttachPositionally) {
  EXPECT_EQ(check_error("g.attachNodeProperty(0);"),
            "2:22: expected a named argument (property = value) for g.attachNodeProperty, found 0");
}

TEST(CheckerErrors, AssignmentToASharedVariableRaces) {
  EXPECT_EQ(check_error("bool changed = False;\nforall (v in g.nodes()) {\n  changed = True;\n}"),
            "4:3: expected a reduction (+=, &&=, ||=, Min, ...) to update 'changed' inside the forall at 3:1, found a "
            "plain assignment (declared outside the loop at 2:6, it is shared by every vertex, which would race to set "
            "it)");
}

TEST(CheckerErrors, AssignmentToALoopVariable) {
  EXPECT_EQ(check_error("forall (v in g.nodes()) {\n  v = src;\n}"),
            "3:3: expected a variable to assign, found loop variable 'v' (bound at 2:9)");
}

TEST(CheckerErrors, RedeclarationInOneScope) {
  EXPECT_EQ(check_error("int x = 1;\nlong x = 2;"),
            "3:6: expected a name not declared in this scope, found 'x' (declared at 2:5)");
}

TEST(CheckerErrors, ReturnInsideAForall) {
  EXPECT_EQ(check_error("forall (v in g.nodes()) {\n  return;\n}"),
            "3:3: expected return outside vertex loops, found it inside the forall at 2:1 (it is collective: every "
            "rank runs it once for the whole graph, not per vertex)");
}

TEST(CheckerErrors, ReturnTypesDiffer) {
  EXPECT_EQ(check_error("if (True) { return 1; }\nreturn 0.5;"),
            "3:8: expected a return value of type int (as returned at 2:13), found double 0.5");
}

TEST(CheckerErrors, IteratingANumber) {
  EXPECT_EQ(check_error("int x = 3;\nfor (v in x) { }"),
            "3:11: expected g.nodes(), g.neighbors(v), g.nodes_to(v) or a SetN to iterate, found int x");
}

TEST(CheckerErrors, RangeAsAValue) {
  EXPECT_EQ(check_error("bool b = g.nodes() == 3;"),
            "2:10: expected a value, found a range of nodes g.nodes() (only forall and for iterate a range)");
}

TEST(CheckerErrors, CopyingPropertiesOfDifferentTypes) {
  EXPECT_EQ(check_error("propNode<bool> m;\ndist = m;"),
            "3:8: expected a property of type propNode<int> to copy into 'dist', found propNode<bool> m");
}

TEST(CheckerErrors, CallWithoutEffect) {
  EXPECT_EQ(check_error("g.num_nodes();"),
            "2:1: expected a call with an effect (g.attachNodeProperty or g.attachEdgeProperty), found g.num_nodes() "
            "whose value is unused");
}

TEST(CheckerErrors, PropertyWithAnInitialValue) {
  EXPECT_EQ(
      check_error("propNode<int> p = 3;"),
      "2:19: expected no initial value for property 'p' (give it values with g.attachNodeProperty(...)), found 3");
}

TEST(CheckerErrors, LocalGraph) {
  EXPECT_EQ(check_error("Graph h;"), "2:1: expected a variable type, found Graph (a graph can only be a parameter)");
}

TEST(CheckerErrors, BfsFromANumber) {
  EXPECT_EQ(check_error("iterateInBFS (v in g.nodes() from 0) { }"),
            "2:35: expected a node as the BFS's root, found int 0");
}

TEST(CheckerErrors, BfsOverNeighbours) {
  EXPECT_EQ(check_error("iterateInBFS (v in g.neighbors(src) from src) { }"),
            "2:20: expected g.nodes() to iterate in BFS order, found a range of nodes g.neighbors(src)");
}

TEST(CheckerErrors, SetOfANonGraph) {
  EXPECT_EQ(program_error("function f(Graph g, int k, SetN<k> s) { }"),
            "1:28: expected the name of an earlier Graph parameter in SetN<...>, found 'k'");
}

TEST(CheckerErrors, DuplicateFunction) {
  EXPECT_EQ(program_error("function f() { }\nfunction f() { }"),
            "2:1: expected a function name not used before, found 'f' (a function at 1:1)");
}

TEST(CheckerErrors, FilterOfAnEdgeProperty) {
  EXPECT_EQ(check_error("forall (v in g.nodes().filter(weight > 0)) { }"),
            "2:31: expected a value, found propEdge<int> weight (a whole property: name one element, like v.weight)");
}

TEST(CheckerErrors, ErrorsNameTheFile) {
  try {
    front_end(in_function("x = 1;"), "programs/mine.sp");
    FAIL() << "no error";
  } catch (const CompileError& e) {
    EXPECT_STREQ(e.what(), "programs/mine.sp:2:1: expected a declared name, found undeclared 'x'");
    EXPECT_EQ(e.file(), "programs/mine.sp");
  }
}

}  // namespace checker_test
}  // namespace courier::dsl
