// Definition 3 of paper 004: pulses, the synchronisations between ranks that end each period of
// computation within them.
#include <algorithm>

#include "analysis_steps.hpp"
#include "courier/dsl/walk.hpp"

namespace courier::dsl {

namespace {

// Loops whose variable is a vertex the running rank owns.
bool owns_its_variable(const Stmt& s) {
  if (s.as<IterateInBFS>()) return true;
  const auto* f = s.as<Forall>();
  return f && (f->domain == DomainKind::Nodes || (f->domain == DomainKind::Set && f->parallel));
}

class PulseFinder {
 public:
  PulseFinder(const Function& f, FunctionAnalysis& out) : out_(out) {
    for (const auto& symbol : f.symbols) {
      if (symbol->kind == SymbolKind::LoopVariable && symbol->binder && owns_its_variable(*symbol->binder)) {
        owned_.push_back(symbol.get());
      }
    }
  }

  void visit(const Stmt& s, const Stmt* repeater) {
    if (s.as<Forall>() && owns_its_variable(s)) {
      region(s, PulseKind::VertexLoop, {&s}, {}, repeater);
    } else if (const auto* b = s.as<IterateInBFS>()) {
      std::vector<const Stmt*> body;
      for (const Stmt& inner : b->body.statements) body.push_back(&inner);
      region(s, PulseKind::BfsLevel, body, own_accesses(s), repeater);
      if (b->reverse) region(*b->reverse, PulseKind::ReverseLevel, {b->reverse.get()}, {}, repeater);
    } else if (const auto* fp = s.as<FixedPoint>()) {
      for_each_child(s, [&](const Stmt& inner) { visit(inner, &s); });
      Pulse p{&s, PulseKind::Convergence, false, {}, {}, {}, {}, repeater};
      for_each_subexpression(*fp->condition, [&](const Expr& e) {
        const auto* n = e.as<NameRef>();
        if (n && n->symbol && n->symbol->type.is_property()) add_unique(p.synchronised, n->symbol);
      });
      out_.pulses.push_back(std::move(p));
    } else if (s.as<While>() || s.as<DoWhile>() || s.as<Forall>()) {
      // Loops that repeat the pulses inside them (the Forall left is a `for` over a set, in order).
      for_each_child(s, [&](const Stmt& inner) { visit(inner, &s); });
    } else {
      for_each_child(s, [&](const Stmt& inner) { visit(inner, repeater); });
    }
  }

 private:
  static void add_unique(std::vector<const Symbol*>& v, const Symbol* s) {
    if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
  }

  // The pulse ending the computation of `roots` (run per vertex by statement `s`).
  void region(const Stmt& s, PulseKind kind, const std::vector<const Stmt*>& roots, const std::vector<Access>& header,
              const Stmt* repeater) {
    Pulse p{&s, kind, false, {}, {}, {}, {}, repeater};
    const bool inside_exclusive = out_.find_exclusive(s) != nullptr;
    p.aggregated = inside_exclusive || (kind == PulseKind::BfsLevel && definition1(roots, header).holds);
    for (const Stmt* root : roots) {
      for_each_statement(*root, [&](const Stmt& inner) {
        if (is_reduction_statement(inner)) {
          p.reductions.push_back(&inner);
          for (const Symbol* e : reduced_elements(*inner.as<Reduction>())) add_unique(p.synchronised, e);
        }
        const auto* a = inner.as<Assignment>();
        if (!a || a->property_copy) return;
        const auto* target = a->target->as<PropertyRef>();
        if (!target) return;
        add_unique(p.assigned, target->symbol);
        const auto* element = target->element->as<NameRef>();
        const bool owned = element && std::find(owned_.begin(), owned_.end(), element->symbol) != owned_.end();
        if (!owned) p.remote_writes.push_back(&inner);
      });
    }
    out_.pulses.push_back(std::move(p));
  }

  FunctionAnalysis& out_;
  std::vector<const Symbol*> owned_;
};

}  // namespace

void find_pulses(const Function& f, FunctionAnalysis& out) {
  PulseFinder finder(f, out);
  for (const Stmt& s : f.body.statements) finder.visit(s, nullptr);
}

}  // namespace courier::dsl
