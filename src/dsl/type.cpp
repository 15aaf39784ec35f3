#include "courier/dsl/type.hpp"

#include <fmt/format.h>

namespace courier::dsl {

bool Type::is_numeric() const {
  return kind == TypeKind::Int || kind == TypeKind::Long || kind == TypeKind::Float || kind == TypeKind::Double;
}

bool Type::is_integral() const { return kind == TypeKind::Int || kind == TypeKind::Long; }

bool Type::is_value() const {
  return is_numeric() || kind == TypeKind::Bool || kind == TypeKind::Node || kind == TypeKind::Edge;
}

std::string to_string(TypeKind kind) {
  switch (kind) {
    case TypeKind::Void:
      return "void";
    case TypeKind::Int:
      return "int";
    case TypeKind::Long:
      return "long";
    case TypeKind::Float:
      return "float";
    case TypeKind::Double:
      return "double";
    case TypeKind::Bool:
      return "bool";
    case TypeKind::Node:
      return "node";
    case TypeKind::Edge:
      return "edge";
    case TypeKind::Graph:
      return "Graph";
    case TypeKind::NodeProperty:
      return "propNode";
    case TypeKind::EdgeProperty:
      return "propEdge";
    case TypeKind::NodeSet:
      return "SetN";
    case TypeKind::NodeRange:
      return "a range of nodes";
    case TypeKind::Infinity:
      return "INF";
  }
  return "?";
}

std::string to_string(const Type& type) {
  if (type.is_property()) return fmt::format("{}<{}>", to_string(type.kind), to_string(type.element));
  if (type.kind == TypeKind::NodeSet) return fmt::format("SetN<{}>", type.graph);
  return to_string(type.kind);
}

}  // namespace courier::dsl
