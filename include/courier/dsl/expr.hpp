#pragma once
// Expressions of the AST. An Expr is a location, the type the checker gives it, and one of the
// alternatives below; children are owned. Min and Max are not expressions: they only appear in a
// Reduction (stmt.hpp).
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "courier/dsl/location.hpp"
#include "courier/dsl/type.hpp"

namespace courier::dsl {

struct Symbol;
struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct IntLiteral {
  std::int64_t value = 0;
};
struct RealLiteral {
  double value = 0;
  std::string spelling;  // as written, so that dumps and generated code show it unchanged
};
struct BoolLiteral {
  bool value = false;
};
struct InfLiteral {};  // INF: the largest value of whatever number type it meets

// A name: a variable, a parameter, a loop variable, the graph, or a whole property.
struct NameRef {
  std::string name;
  const Symbol* symbol = nullptr;  // set by the checker
};

// element.property: v.dist (node property), e.weight (edge property).
struct PropertyRef {
  ExprPtr element;
  std::string property;
  Location property_location;
  const Symbol* symbol = nullptr;  // the property's declaration, set by the checker
};

enum class UnaryOp : std::uint8_t { Not, Negate };
struct Unary {
  UnaryOp op = UnaryOp::Not;
  ExprPtr operand;
};

enum class BinaryOp : std::uint8_t {
  Or,
  And,
  Equal,
  NotEqual,
  Less,
  LessEqual,
  Greater,
  GreaterEqual,
  Add,
  Subtract,
  Multiply,
  Divide,
  Modulo,
};
struct Binary {
  BinaryOp op = BinaryOp::Add;
  Location operator_location;
  ExprPtr left;
  ExprPtr right;
};

// The methods of a Graph (the checker resolves the name).
enum class GraphMethod : std::uint8_t {
  Unknown,
  Nodes,               // g.nodes(): every node, a range
  Neighbors,           // g.neighbors(v): v's out-neighbours, a range
  NodesTo,             // g.nodes_to(v): v's in-neighbours, a range
  GetEdge,             // g.get_edge(u, v): the edge u -> v
  NumNodes,            // g.num_nodes(): long
  NumEdges,            // g.num_edges(): long
  CountOutNbrs,        // g.count_outNbrs(v): out-degree, long
  CountInNbrs,         // g.count_inNbrs(v): in-degree, long
  IsAnEdge,            // g.is_an_edge(u, v): bool
  AttachNodeProperty,  // g.attachNodeProperty(p = value, ...): sets p of every node
  AttachEdgeProperty,  // g.attachEdgeProperty(p = value, ...): sets p of every edge
};

// An argument of a method call: positional (`v`), or named (`dist = INF`, attach* only).
struct Argument {
  std::string name;  // empty when positional
  Location location;
  ExprPtr value;
  const Symbol* property = nullptr;  // a named argument's property, set by the checker
};

struct MethodCall {
  ExprPtr object;
  std::string method;
  Location method_location;
  std::vector<Argument> arguments;
  GraphMethod resolved = GraphMethod::Unknown;  // set by the checker
};

struct Expr {
  Location location;  // where the expression starts
  Type type;          // set by the checker
  std::variant<IntLiteral, RealLiteral, BoolLiteral, InfLiteral, NameRef, PropertyRef, Unary, Binary, MethodCall> node;

  template <class T>
  T* as() {
    return std::get_if<T>(&node);
  }
  template <class T>
  const T* as() const {
    return std::get_if<T>(&node);
  }
};

template <class T>
ExprPtr make_expr(Location location, T node) {
  auto e = std::make_unique<Expr>();
  e->location = location;
  e->node = std::move(node);
  return e;
}

std::string_view spelling(BinaryOp op);
std::string_view spelling(UnaryOp op);
std::string_view spelling(GraphMethod method);

// The expression as source text. Minimal: parentheses only where precedence needs them (for
// messages: "found v.dist + 1"). Full: every nested binary expression parenthesised, so that a dump
// shows how the parser grouped it.
enum class Parentheses : std::uint8_t { Minimal, Full };
std::string to_source(const Expr& expr, Parentheses parentheses = Parentheses::Minimal);

}  // namespace courier::dsl
