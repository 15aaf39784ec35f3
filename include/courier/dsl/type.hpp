#pragma once
// The types of the language: scalars (int long float double bool), graph elements (node, edge), the
// graph, properties (propNode<T>, propEdge<T>: one T per node or per edge), sets of nodes (SetN<g>),
// and two the checker gives expressions only: a range of nodes (g.nodes(), g.neighbors(v)), which
// only a loop iterates, and INF, which fits any number.
#include <cstdint>
#include <string>

namespace courier::dsl {

enum class TypeKind : std::uint8_t {
  Void,  // no value (a method like attachNodeProperty); also "not checked yet"
  Int,
  Long,
  Float,
  Double,
  Bool,
  Node,
  Edge,
  Graph,
  NodeProperty,
  EdgeProperty,
  NodeSet,
  NodeRange,
  Infinity,
};

struct Type {
  TypeKind kind = TypeKind::Void;
  TypeKind element = TypeKind::Void;  // a property's value type
  std::string graph;                  // SetN<g>: the graph whose nodes it holds

  static Type of(TypeKind kind) { return Type{kind, TypeKind::Void, {}}; }
  static Type property(TypeKind kind, TypeKind element) { return Type{kind, element, {}}; }

  bool is_numeric() const;   // int long float double
  bool is_integral() const;  // int long
  bool is_property() const { return kind == TypeKind::NodeProperty || kind == TypeKind::EdgeProperty; }
  // What a variable may hold and an expression may yield as a value: numbers, bool, node, edge.
  bool is_value() const;
  // The type of one element of a property: propNode<int> -> int.
  Type element_type() const { return of(element); }

  friend bool operator==(const Type&, const Type&) = default;
};

// As written in a program: "int", "propNode<float>", "SetN<g>"; "INF" and "a range of nodes" for
// the two a program cannot write.
std::string to_string(const Type& type);
std::string to_string(TypeKind kind);

}  // namespace courier::dsl
