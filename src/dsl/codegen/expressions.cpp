// Expressions as C++. Nodes as values are global ids (g.id(v) for a loop's local id); a node
// property of a loop's node is read from local memory where the statement is reduction-exclusive
// (the get bypass) and through the property's window elsewhere; at the collective level a node's
// value comes from its owner.
#include <fmt/format.h>

#include "courier/dsl/walk.hpp"
#include "generator.hpp"

namespace courier::dsl::codegen {

namespace {

const Symbol* named(const Expr& e) {
  const auto* n = e.as<NameRef>();
  return n ? n->symbol : nullptr;
}

}  // namespace

void FunctionGenerator::enter(const Stmt& s) { exclusive_ = analysis_.find_exclusive(s) != nullptr; }

std::string FunctionGenerator::literal_inf(const Type& expected) const {
  const TypeKind kind =
      expected.kind == TypeKind::Void || expected.kind == TypeKind::Infinity ? TypeKind::Long : expected.kind;
  return fmt::format("rt::inf<{}>()", cpp_type(kind));
}

std::string FunctionGenerator::local_of(const Expr& node) const {
  const Symbol* s = named(node);
  if (s && (owned(s) || neighbours_.count(s))) return name(s);
  return fmt::format("{}.proxy({})", graph_, expr(node));
}

std::string FunctionGenerator::node_read(const Symbol* property, const Expr& element) const {
  if (vertex_loops_ == 0 && convergence_element_.empty()) {
    return fmt::format("{}.value_of({})", name(property), expr(element));
  }
  if (plain_reads_) return fmt::format("{}[{}]", name(property), local_of(element));
  if (bypass())
    for (const auto& [reduced, view] : reducers_)  // read through the loop's view of it, if it has one
      if (reduced.first == property) return fmt::format("{}.load({})", view, local_of(element));
  return fmt::format("{}.{}({})", name(property), bypass() ? "load" : "get", local_of(element));
}

std::string FunctionGenerator::edge_of(const Expr& e, bool* incoming) const {
  if (const Symbol* s = named(e)) {
    const auto found = edges_.find(s);
    if (found == edges_.end()) unsupported(e.location, "expected an edge variable declared inside a neighbour loop");
    *incoming = found->second;
    return name(s);
  }
  const auto* c = e.as<MethodCall>();
  if (!c || c->resolved != GraphMethod::GetEdge) unsupported(e.location, "expected an edge (g.get_edge(u, v))");
  const Expr& a = *c->arguments[0].value;
  const Expr& b = *c->arguments[1].value;
  const Symbol* sa = named(a);
  const Symbol* sb = named(b);
  // The edge in hand in a CSR-order loop: v -> nbr over v's out-edges, or u -> v over v's in-edges.
  if (const auto n = neighbours_.find(sb); n != neighbours_.end() && !n->second.incoming && n->second.of == sa) {
    *incoming = false;
    return naive() ? fmt::format("{}.find_out_edge({}, {})", graph_, name(sa), name(sb)) : n->second.edge;
  }
  if (const auto n = neighbours_.find(sa); n != neighbours_.end() && n->second.incoming && n->second.of == sb) {
    *incoming = true;
    return naive() ? fmt::format("{}.find_in_edge({}, {})", graph_, name(sb), name(sa)) : n->second.edge;
  }
  *incoming = false;
  return fmt::format("{}.find_out_edge({}, {})", graph_, local_of(a), local_of(b));
}

std::string FunctionGenerator::method(const MethodCall& c) const {
  auto arg = [&](std::size_t i) -> const Expr& { return *c.arguments[i].value; };
  switch (c.resolved) {
    case GraphMethod::NumNodes:
      return fmt::format("{}.num_nodes()", graph_);
    case GraphMethod::NumEdges:
      return fmt::format("{}.num_edges()", graph_);
    case GraphMethod::CountOutNbrs:
      return fmt::format("{}.out_degree({})", graph_, local_of(arg(0)));
    case GraphMethod::CountInNbrs:
      return fmt::format("{}.in_degree({})", graph_, local_of(arg(0)));
    case GraphMethod::IsAnEdge:
      return fmt::format("{}.has_edge({}, {})", graph_, local_of(arg(0)), local_of(arg(1)));
    default:
      unsupported(c.method_location, fmt::format("expected a graph method with a value, found g.{}", c.method));
  }
}

std::string FunctionGenerator::expr(const Expr& e, const Type& expected) const {
  if (expected.kind == TypeKind::Float && e.type.kind == TypeKind::Double && !e.as<RealLiteral>())
    return fmt::format("static_cast<float>({})", expr(e, e.type));  // the narrowing, written out
  if (&e != computing_) {
    if (const auto found = hoisted_.find(&e); found != hoisted_.end()) return found->second;
  }
  if (const auto* i = e.as<IntLiteral>()) {
    if (e.type.kind == TypeKind::Long) return fmt::format("std::int64_t{{{}}}", i->value);
    return fmt::format("{}", i->value);
  }
  if (const auto* r = e.as<RealLiteral>()) return r->spelling;
  if (const auto* b = e.as<BoolLiteral>()) return b->value ? "true" : "false";
  if (e.as<InfLiteral>()) return literal_inf(expected);
  if (const auto* n = e.as<NameRef>()) {
    const Symbol* s = n->symbol;
    if (s->type.kind == TypeKind::NodeProperty) {  // fixedPoint's condition: this node's value
      return fmt::format("{}.{}({})", name(s), naive() ? "get" : "load", convergence_element_);
    }
    if (owned(s) || neighbours_.count(s)) return fmt::format("{}.id({})", graph_, name(s));
    return name(s);
  }
  if (const auto* p = e.as<PropertyRef>()) {
    if (p->element->type.kind == TypeKind::Edge) {
      bool incoming = false;
      const std::string edge = edge_of(*p->element, &incoming);
      if (const auto set = set_per_edge_.find(p->symbol); incoming && set != set_per_edge_.end()) {
        // Set at out-edges, on their sources' ranks: an in-edge's copy would not have the value.
        unsupported(e.location, fmt::format("expected {} read over out-edges (g.neighbors), found it read over an "
                                            "in-edge: it is set edge by edge (at {}:{}), and only out-edges hold "
                                            "what was set",
                                            p->property, set->second.line, set->second.column));
      }
      return fmt::format("{}.{}({})", name(p->symbol), incoming ? "in" : "out", edge);
    }
    return node_read(p->symbol, *p->element);
  }
  if (const auto* u = e.as<Unary>()) {
    return fmt::format("({}{})", u->op == UnaryOp::Not ? "!" : "-", expr(*u->operand, expected));
  }
  if (const auto* b = e.as<Binary>()) {
    const Type& lt = b->left->type;
    const Type& rt = b->right->type;
    const Type left_expected = lt.kind == TypeKind::Infinity ? rt : expected;
    const Type right_expected = rt.kind == TypeKind::Infinity ? lt : expected;
    std::string left = expr(*b->left, left_expected);
    if (widen_ && e.type.kind == TypeKind::Int &&
        (b->op == BinaryOp::Add || b->op == BinaryOp::Subtract || b->op == BinaryOp::Multiply))
      left = fmt::format("std::int64_t{{{}}}", left);
    return fmt::format("({} {} {})", left, spelling(b->op), expr(*b->right, right_expected));
  }
  if (const auto* c = e.as<MethodCall>()) {
    if (c->resolved == GraphMethod::GetEdge) {
      bool incoming = false;
      return edge_of(e, &incoming);
    }
    return method(*c);
  }
  unsupported(e.location, "expected an expression");
}

std::string FunctionGenerator::reduction_op(ReductionOp op) const {
  switch (op) {
    case ReductionOp::Add:
    case ReductionOp::Subtract:
      return "rt::Sum";
    case ReductionOp::Multiply:
      return "rt::Product";
    case ReductionOp::And:
      return "rt::And";
    case ReductionOp::Or:
      return "rt::Or";
    case ReductionOp::Min:
      return "rt::Min";
    case ReductionOp::Max:
      return "rt::Max";
  }
  return "rt::Sum";
}

bool FunctionGenerator::narrowed(const Reduction& r) const {
  if (r.scope == ReductionTarget::Private || r.target->type.kind != TypeKind::Int) return false;
  bool arithmetic = false;
  for_each_subexpression(*r.value, [&](const Expr& e) {
    const auto* b = e.as<Binary>();
    if (b && e.type.kind == TypeKind::Int &&
        (b->op == BinaryOp::Add || b->op == BinaryOp::Subtract || b->op == BinaryOp::Multiply))
      arithmetic = true;
  });
  return arithmetic;
}

std::string FunctionGenerator::reduction_value(const Reduction& r) const {
  if (&r == chunk_offer_) return chunk_offer_name_;
  if (narrowed(r)) {
    widen_ = true;
    std::string value = expr(*r.value, r.target->type);
    widen_ = false;
    if (r.op == ReductionOp::Subtract) value = fmt::format("-({})", value);
    return fmt::format("{}.narrow<{}, {}>({}, {})", graph_, cpp_type(r.target->type), reduction_op(r.op), value,
                       out_.place(r.value->location));
  }
  const std::string value = expr(*r.value, r.target->type);
  return r.op == ReductionOp::Subtract ? fmt::format("-({})", value) : value;
}

}  // namespace courier::dsl::codegen
