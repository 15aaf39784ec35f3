// The six shipped programs: all there, each passes the front end, and each has the shape its
// algorithm needs (the statements the analyses and code generation rely on).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "courier/dsl/front_end.hpp"
#include "courier/dsl/shipped_programs.hpp"
#include "courier/dsl/walk.hpp"

namespace courier::dsl {
namespace programs_test {

Program load(std::string_view name) {
  const ShippedProgram* p = find_shipped_program(name);
  if (!p) throw std::runtime_error("no shipped program " + std::string(name));
  return front_end(p->source, std::string(p->file));
}

// The parameters' types as written: "Graph, propNode<long>, ...".
std::string signature(const Function& f) {
  std::string out;
  for (const Parameter& p : f.parameters) {
    if (!out.empty()) out += ", ";
    out += to_string(p.type);
  }
  return out;
}

// Every statement of the function, each described by a short tag, in source order.
std::vector<std::string> shape(const Function& f) {
  std::vector<std::string> out;
  for_each_statement(f.body, [&](const Stmt& s) {
    if (const auto* n = s.as<Forall>()) {
      out.push_back(std::string(n->parallel ? "forall" : "for") + ":" + to_source(*n->source));
    } else if (s.as<FixedPoint>()) {
      out.push_back("fixedPoint");
    } else if (s.as<IterateInBFS>()) {
      out.push_back("iterateInBFS");
    } else if (s.as<IterateInReverse>()) {
      out.push_back("iterateInReverse");
    } else if (s.as<While>()) {
      out.push_back("while");
    } else if (const auto* r = s.as<Reduction>()) {
      out.push_back("reduce:" + to_source(*r->target) + std::string(spelling(r->op)));
    }
  });
  return out;
}

TEST(ShippedPrograms, AllSevenAreThere) {
  std::set<std::string> names;
  for (const ShippedProgram& p : shipped_programs()) {
    names.emplace(p.name);
    EXPECT_EQ(p.file, "dsl/programs/" + std::string(p.name) + ".sp");
    EXPECT_NE(p.source.find("function " + std::string(p.name) + "("), std::string_view::npos) << p.name;
  }
  EXPECT_EQ(names, (std::set<std::string>{"bc", "bfs", "cc", "pagerank", "pagerank_float_shares", "sssp", "tc"}));
  EXPECT_EQ(find_shipped_program("nope"), nullptr);
}

TEST(ShippedPrograms, EachPassesTheFrontEnd) {
  for (const ShippedProgram& p : shipped_programs()) {
    SCOPED_TRACE(std::string(p.name));
    const Program program = front_end(p.source, std::string(p.file));
    ASSERT_EQ(program.functions.size(), 1u);
    EXPECT_EQ(program.functions[0].name, p.name);
  }
}

TEST(ShippedPrograms, Sssp) {
  const Function f = std::move(load("sssp").functions[0]);
  EXPECT_EQ(signature(f), "Graph, propNode<int>, propEdge<int>, node");
  EXPECT_EQ(shape(f), (std::vector<std::string>{"fixedPoint", "forall:g.nodes()", "forall:g.neighbors(v)",
                                                "reduce:nbr.distMin"}));
}

TEST(ShippedPrograms, Bfs) {
  const Function f = std::move(load("bfs").functions[0]);
  EXPECT_EQ(signature(f), "Graph, propNode<int>, node");
  EXPECT_EQ(shape(f), (std::vector<std::string>{"fixedPoint", "forall:g.nodes()", "forall:g.neighbors(v)",
                                                "reduce:nbr.levelMin", "reduce:depth+="}));
}

TEST(ShippedPrograms, CcPropagatesBothWays) {
  const Function f = std::move(load("cc").functions[0]);
  EXPECT_EQ(signature(f), "Graph, propNode<node>");
  EXPECT_EQ(shape(f), (std::vector<std::string>{"forall:g.nodes()", "fixedPoint", "forall:g.nodes()",
                                                "forall:g.neighbors(v)", "reduce:nbr.labelMin", "forall:g.nodes()",
                                                "forall:g.nodes_to(v)", "reduce:nbr.labelMin"}));
}

TEST(ShippedPrograms, Pagerank) {
  const Function f = std::move(load("pagerank").functions[0]);
  EXPECT_EQ(signature(f), "Graph, double, double, int, propNode<double>");
  EXPECT_EQ(shape(f), (std::vector<std::string>{"while", "forall:g.nodes()", "reduce:dangling+=", "forall:g.nodes()",
                                                "for:g.nodes_to(v)", "reduce:change+=", "reduce:iterations+="}));
}

TEST(ShippedPrograms, PagerankWithFloatShares) {
  const Function f = std::move(load("pagerank_float_shares").functions[0]);
  EXPECT_EQ(signature(f), "Graph, double, double, int, propNode<double>");
  EXPECT_EQ(shape(f), (std::vector<std::string>{"while", "forall:g.nodes()", "reduce:dangling+=", "forall:g.nodes()",
                                                "for:g.nodes_to(v)", "reduce:change+=", "reduce:iterations+="}));
}

TEST(ShippedPrograms, TriangleCountingReturnsTheCount) {
  const Function f = std::move(load("tc").functions[0]);
  EXPECT_EQ(signature(f), "Graph, propNode<long>");
  EXPECT_EQ(f.result, Type::of(TypeKind::Long));
  EXPECT_EQ(shape(f), (std::vector<std::string>{
                          "forall:g.nodes()", "forall:g.neighbors(v)", "forall:g.neighbors(v)",
                          "reduce:triangles+=", "reduce:u.corners+=", "reduce:v.corners+=", "reduce:w.corners+="}));
}

TEST(ShippedPrograms, BetweennessCentralityFromASetOfSources) {
  const Function f = std::move(load("bc").functions[0]);
  EXPECT_EQ(signature(f), "Graph, propNode<double>, SetN<g>");
  EXPECT_EQ(shape(f), (std::vector<std::string>{"for:sources", "iterateInBFS", "for:g.neighbors(v)",
                                                "reduce:w.sigma+=", "iterateInReverse", "for:g.neighbors(v)"}));
}

}  // namespace programs_test
}  // namespace courier::dsl
