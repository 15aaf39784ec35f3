// Hoisting: expressions of one node inside neighbour loops, computed once per node instead of once
// per edge (analysis.hpp says when).
#include <algorithm>
#include <map>

#include "analysis_steps.hpp"
#include "courier/dsl/walk.hpp"

namespace courier::dsl {

namespace {

bool is_neighbour_loop(const Stmt& s) {
  const auto* f = s.as<Forall>();
  return f && (f->domain == DomainKind::OutNeighbors || f->domain == DomainKind::InNeighbors);
}

bool is_vertex_loop(const Stmt& s) {
  const auto* f = s.as<Forall>();
  return f && (f->domain == DomainKind::Nodes || (f->domain == DomainKind::Set && f->parallel));
}

}  // namespace

Dependence depends(const Expr& top) {
  Dependence d;
  auto node = [&](const Expr& element) {
    const Symbol* s = named(element);
    if (!s || s->kind != SymbolKind::LoopVariable) {
      d.pure = false;
      return;
    }
    if (std::find(d.nodes.begin(), d.nodes.end(), s) == d.nodes.end()) d.nodes.push_back(s);
  };
  // Walked by hand: a property's element and a degree's argument are nodes, not values.
  auto walk = [&](const Expr& e, auto& self) -> void {
    if (e.as<IntLiteral>() || e.as<RealLiteral>() || e.as<BoolLiteral>()) return;
    if (const auto* n = e.as<NameRef>()) {
      const Symbol* s = n->symbol;
      const bool collective_scalar = s && s->kind != SymbolKind::LoopVariable && s->vertex_depth == 0 &&
                                     (s->type.is_numeric() || s->type.kind == TypeKind::Bool);
      if (!collective_scalar) d.pure = false;
      if (s) d.reads.push_back(s);
      return;
    }
    if (const auto* p = e.as<PropertyRef>()) {
      if (p->symbol->type.kind != TypeKind::NodeProperty) {
        d.pure = false;
        return;
      }
      node(*p->element);
      d.reads.push_back(p->symbol);
      return;
    }
    if (const auto* u = e.as<Unary>()) {
      d.operation = true;
      self(*u->operand, self);
      return;
    }
    if (const auto* b = e.as<Binary>()) {
      d.operation = true;
      if ((b->op == BinaryOp::Divide || b->op == BinaryOp::Modulo) && b->left->type.is_integral() &&
          b->right->type.is_integral())
        d.integer_division = true;
      self(*b->left, self);
      self(*b->right, self);
      return;
    }
    if (const auto* c = e.as<MethodCall>()) {
      if (c->resolved == GraphMethod::CountOutNbrs || c->resolved == GraphMethod::CountInNbrs) {
        node(*c->arguments[0].value);
        return;
      }
      if (c->resolved == GraphMethod::NumNodes || c->resolved == GraphMethod::NumEdges) return;
    }
    d.pure = false;  // INF, an edge's property, another graph method
  };
  walk(top, walk);
  return d;
}

namespace {

class Hoister {
 public:
  explicit Hoister(FunctionAnalysis& out) : out_(out) {}

  void visit(const Stmt& s) {
    if (!is_vertex_loop(s)) return for_each_child(s, [&](const Stmt& inner) { visit(inner); });
    pulse_ = &s;
    written_.clear();
    for_each_statement(s, [&](const Stmt& inner) {
      for (const Access& a : own_accesses(inner))
        if (a.update) written_.emplace(a.symbol, a.location);  // the first place, in source order
    });
    for_each_child(s, [&](const Stmt& inner) { inside(inner, nullptr); });
  }

 private:
  // `s` inside the vertex loop; `loop` is the innermost neighbour loop around it, if any.
  void inside(const Stmt& s, const Stmt* loop) {
    if (is_neighbour_loop(s)) {
      if (const auto& filter = s.as<Forall>()->filter) candidates(*filter, s);
      return for_each_child(s, [&](const Stmt& inner) { inside(inner, &s); });
    }
    if (loop) {
      // Values only: what assignments and reductions write is not computed.
      if (const auto* d = s.as<Declaration>(); d && d->init) candidates(*d->init, *loop);
      if (const auto* a = s.as<Assignment>()) candidates(*a->value, *loop);
      if (const auto* r = s.as<Reduction>()) candidates(*r->value, *loop);
      if (const auto* i = s.as<If>()) candidates(*i->condition, *loop);
      if (const auto* w = s.as<While>()) candidates(*w->condition, *loop);
      if (const auto* w = s.as<DoWhile>()) candidates(*w->condition, *loop);
    }
    for_each_child(s, [&](const Stmt& inner) { inside(inner, loop); });
  }

  // The largest expressions in `e` of one node of `loop`.
  void candidates(const Expr& e, const Stmt& loop) {
    const auto& f = *loop.as<Forall>();
    const Dependence d = depends(e);
    const bool one_node = d.nodes.size() == 1 && (d.nodes[0] == f.symbol || d.nodes[0] == named(*f.of));
    const bool numeric = e.type.is_numeric();
    if (d.pure && one_node && d.operation && numeric) {
      NotHoisted no;
      no.expression = &e;
      no.loop = &loop;
      for (const Symbol* read : d.reads) {
        const auto w = written_.find(read);
        if (w == written_.end()) continue;
        no.written = read;
        no.written_at = w->second;
        break;
      }
      no.integer_division = d.integer_division;
      if (no.written || no.integer_division) {
        out_.not_hoisted.push_back(no);
      } else {
        const HoistKind kind = d.nodes[0] == f.symbol ? HoistKind::PerNeighbour : HoistKind::PerVertex;
        out_.hoisted.push_back({&e, &loop, pulse_, kind});
      }
      return;
    }
    if (const auto* u = e.as<Unary>()) return candidates(*u->operand, loop);
    if (const auto* b = e.as<Binary>()) {
      candidates(*b->left, loop);
      candidates(*b->right, loop);
    }
  }

  FunctionAnalysis& out_;
  const Stmt* pulse_ = nullptr;
  std::map<const Symbol*, Location> written_;  // in the vertex loop
};

}  // namespace

void find_hoisting(const Function& f, FunctionAnalysis& out) {
  Hoister hoister(out);
  for (const Stmt& s : f.body.statements) hoister.visit(s);
}

}  // namespace courier::dsl
