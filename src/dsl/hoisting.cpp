// Hoisting: expressions of one node inside neighbour loops, computed once per node instead of once
// per edge (analysis.hpp says when).
#include <algorithm>
#include <map>
#include <set>

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
    // Values only: what assignments and reductions write is not computed.
    auto each_value = [&](auto&& f) {
      if (const auto* d = s.as<Declaration>(); d && d->init) f(*d->init);
      if (const auto* a = s.as<Assignment>()) f(*a->value);
      if (const auto* r = s.as<Reduction>()) f(*r->value);
      if (const auto* i = s.as<If>()) f(*i->condition);
      if (const auto* w = s.as<While>()) f(*w->condition);
      if (const auto* w = s.as<DoWhile>()) f(*w->condition);
    };
    if (loop) {
      each_value([&](const Expr& e) { candidates(e, *loop); });
    } else {
      each_value([&](const Expr& e) { invariants(e); });
    }
    for_each_child(s, [&](const Stmt& inner) { inside(inner, loop); });
  }

  // The largest expressions in `e` (outside neighbour loops) of no node and nothing the loop writes.
  void invariants(const Expr& e) {
    const Dependence d = depends(e);
    const bool unwritten =
        std::none_of(d.reads.begin(), d.reads.end(), [&](const Symbol* r) { return written_.count(r) != 0; });
    // Floating point only: integer arithmetic is cheap, and a narrowed reduction's runs in 64 bits.
    const bool real = e.type.kind == TypeKind::Float || e.type.kind == TypeKind::Double;
    if (d.pure && d.nodes.empty() && d.operation && real && unwritten) {
      out_.invariants.push_back({&e, pulse_});
      return;
    }
    if (const auto* u = e.as<Unary>()) return invariants(*u->operand);
    if (const auto* b = e.as<Binary>()) {
      invariants(*b->left);
      invariants(*b->right);
    }
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

namespace {

bool is_loop(const Stmt& s) {
  return s.as<Forall>() || s.as<While>() || s.as<DoWhile>() || s.as<FixedPoint>() || s.as<IterateInBFS>();
}

// A per-neighbour hoist of the vertex loop at b.statements[at] may be computed in the nearest
// vertex loop before it over every node (no flag filter: an expression filter is tested after),
// when that loop and the statements between update nothing it reads and no loop stands between.
const Stmt* carrier(const Block& b, std::size_t at, const Hoisted& h) {
  const Dependence d = depends(*h.expression);
  auto writes_a_read = [&](const Stmt& s) {
    const std::set<const Symbol*> updated = updated_in(s);
    return std::any_of(d.reads.begin(), d.reads.end(), [&](const Symbol* r) { return updated.count(r) != 0; });
  };
  for (std::size_t j = at; j-- > 0;) {
    const Stmt& x = b.statements[j];
    if (writes_a_read(x)) return nullptr;
    const auto* f = x.as<Forall>();
    if (f && f->domain == DomainKind::Nodes && !x.per_vertex && !flag_filter(f->filter.get(), f->symbol)) return &x;
    const auto* a = x.as<Assignment>();
    if (is_loop(x) || (a && a->property_copy)) return nullptr;
  }
  return nullptr;
}

}  // namespace

void find_hoisting(const Function& f, FunctionAnalysis& out) {
  Hoister hoister(out);
  for (const Stmt& s : f.body.statements) hoister.visit(s);
  // Loop fusion: each block's vertex loops, for the hoists of each.
  auto fuse = [&](const Block& b) {
    for (std::size_t i = 0; i < b.statements.size(); ++i)
      for (Hoisted& h : out.hoisted)
        if (h.pulse == &b.statements[i] && h.kind == HoistKind::PerNeighbour) h.computed_in = carrier(b, i, h);
  };
  fuse(f.body);
  for_each_statement(f.body, [&](const Stmt& s) {
    if (const auto* n = s.as<Block>()) fuse(*n);
    if (const auto* n = s.as<While>()) fuse(n->body);
    if (const auto* n = s.as<DoWhile>()) fuse(n->body);
    if (const auto* n = s.as<FixedPoint>()) fuse(n->body);
  });
}

}  // namespace courier::dsl
