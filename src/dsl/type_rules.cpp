#include "type_rules.hpp"

#include <fmt/format.h>

namespace courier::dsl {

namespace {

int numeric_rank(TypeKind kind) {
  switch (kind) {
    case TypeKind::Int:
      return 0;
    case TypeKind::Long:
      return 1;
    case TypeKind::Float:
      return 2;
    case TypeKind::Double:
      return 3;
    default:
      return -1;
  }
}

// A literal, possibly negated: `3`, `-3`, `0.5`.
const Expr& unsigned_literal(const Expr& e) {
  if (const auto* u = e.as<Unary>(); u && u->op == UnaryOp::Negate) return unsigned_literal(*u->operand);
  return e;
}

}  // namespace

Type wider(const Type& a, const Type& b) {
  if (a.kind == TypeKind::Infinity) return b;
  if (b.kind == TypeKind::Infinity) return a;
  return numeric_rank(a.kind) >= numeric_rank(b.kind) ? a : b;
}

bool assignable(const Type& to, const Expr& value) {
  const Type& from = value.type;
  if (from == to) return true;
  if (!to.is_numeric()) return false;
  if (from.kind == TypeKind::Infinity) return true;
  const Expr& literal = unsigned_literal(value);
  if (literal.as<IntLiteral>()) return to.kind != TypeKind::Int || literal.type.kind == TypeKind::Int;  // it fits
  if (literal.as<RealLiteral>()) return to.kind == TypeKind::Float || to.kind == TypeKind::Double;
  // A double narrows to a float as in StarPlat (and C): the value rounds, its magnitude stays. A
  // program keeps a property in float to halve what its loops read (pagerank's shares).
  if (to.kind == TypeKind::Float && from.kind == TypeKind::Double) return true;
  return from.is_numeric() && numeric_rank(from.kind) <= numeric_rank(to.kind);
}

std::string found(const Expr& e) {
  if (e.type.kind == TypeKind::Infinity) return "INF";
  return fmt::format("{} {}", to_string(e.type), to_source(e));
}

}  // namespace courier::dsl
