#include "courier/dsl/analysis.hpp"

#include <algorithm>

#include "analysis_steps.hpp"

namespace courier::dsl {

const ExclusiveStatement* FunctionAnalysis::find_exclusive(const Stmt& s) const {
  const auto it =
      std::find_if(exclusive.begin(), exclusive.end(), [&](const ExclusiveStatement& x) { return x.statement == &s; });
  return it == exclusive.end() ? nullptr : &*it;
}

const CacheSafety* FunctionAnalysis::find_property(const Symbol& property) const {
  const auto it =
      std::find_if(properties.begin(), properties.end(), [&](const CacheSafety& c) { return c.property == &property; });
  return it == properties.end() ? nullptr : &*it;
}

const Hoisted* FunctionAnalysis::find_hoisted(const Expr& e) const {
  const auto it = std::find_if(hoisted.begin(), hoisted.end(), [&](const Hoisted& h) { return h.expression == &e; });
  return it == hoisted.end() ? nullptr : &*it;
}

const SplitPull* FunctionAnalysis::find_split(const Stmt& loop) const {
  const auto it =
      std::find_if(split_pulls.begin(), split_pulls.end(), [&](const SplitPull& p) { return p.loop == &loop; });
  return it == split_pulls.end() ? nullptr : &*it;
}

const BottomUp* FunctionAnalysis::find_bottom_up(const Stmt& pulse) const {
  const auto it =
      std::find_if(bottom_up.begin(), bottom_up.end(), [&](const BottomUp& b) { return b.pulse == &pulse; });
  return it == bottom_up.end() ? nullptr : &*it;
}

const PropertyMove* FunctionAnalysis::find_move(const Stmt& copy) const {
  const auto it = std::find_if(moves.begin(), moves.end(), [&](const PropertyMove& m) { return m.copy == &copy; });
  return it == moves.end() ? nullptr : &*it;
}

FunctionAnalysis pulls_of(const Function& function) {
  FunctionAnalysis fa;
  fa.function = &function;
  find_reduction_exclusive(function, fa);
  find_pulses(function, fa);
  find_split_pulls(function, fa);
  find_bottom_up(function, fa);
  return fa;
}

const Symbol* flag_filter(const Expr* filter, const Symbol* variable) {
  if (!filter) return nullptr;
  const Expr* test = filter;
  if (const auto* b = filter->as<Binary>(); b && b->op == BinaryOp::Equal) {
    const auto* literal = b->right->as<BoolLiteral>();
    if (!literal || !literal->value) return nullptr;
    test = b->left.get();
  }
  const auto* p = test->as<PropertyRef>();
  const auto* element = p ? p->element->as<NameRef>() : nullptr;
  if (!element || element->symbol != variable || p->symbol->type.element != TypeKind::Bool) return nullptr;
  return p->symbol;
}

Analysis analyse(const Program& program) {
  Analysis analysis;
  for (const Function& f : program.functions) {
    FunctionAnalysis& fa = analysis.functions.emplace_back();
    fa.function = &f;
    find_reduction_exclusive(f, fa);
    find_cache_safety(f, fa);
    find_pulses(f, fa);
    find_hoisting(f, fa);
    find_split_pulls(f, fa);
    find_bottom_up(f, fa);
    find_property_moves(f, fa);
  }
  return analysis;
}

}  // namespace courier::dsl
