#include "accesses.hpp"

#include <algorithm>

#include "courier/dsl/walk.hpp"

namespace courier::dsl {

namespace {

class Collector {
 public:
  void reads(const Expr& e) {
    for_each_subexpression(e, [&](const Expr& x) {
      if (const auto* n = x.as<NameRef>(); n && n->symbol) {
        out.push_back({n->symbol, x.location, false});
      } else if (const auto* p = x.as<PropertyRef>(); p && p->symbol) {
        out.push_back({p->symbol, p->property_location, false});
      } else if (const auto* c = x.as<MethodCall>()) {
        for (const Argument& a : c->arguments) {
          if (a.property) out.push_back({a.property, a.location, true});
        }
      }
    });
  }

  void target(const Expr& t) {
    if (const auto* p = t.as<PropertyRef>()) {
      out.push_back({p->symbol, p->property_location, true});
      reads(*p->element);
    } else if (const auto* n = t.as<NameRef>()) {
      out.push_back({n->symbol, t.location, true});
    }
  }

  std::vector<Access> out;
};

}  // namespace

std::vector<Access> own_accesses(const Stmt& s) {
  Collector c;
  if (const auto* a = s.as<Assignment>()) {
    c.target(*a->target);
    c.reads(*a->value);
  } else if (const auto* r = s.as<Reduction>()) {
    c.target(*r->target);
    c.reads(*r->value);
    for (const Assignment& also : r->also) {
      c.target(*also.target);
      c.reads(*also.value);
    }
  } else {
    for_each_own_expression(s, [&](const Expr& e) { c.reads(e); });
  }
  return std::move(c.out);
}

std::set<const Symbol*> updated_in(const Stmt& s) {
  std::set<const Symbol*> out;
  for_each_statement(s, [&](const Stmt& inner) {
    for (const Access& a : own_accesses(inner))
      if (a.update) out.insert(a.symbol);
  });
  return out;
}

bool is_reduction_statement(const Stmt& s) {
  const auto* r = s.as<Reduction>();
  return r && (r->scope == ReductionTarget::Property || r->scope == ReductionTarget::Shared);
}

std::vector<const Stmt*> reductions_in(const Stmt& s) {
  std::vector<const Stmt*> out;
  for_each_statement(s, [&](const Stmt& inner) {
    if (is_reduction_statement(inner)) out.push_back(&inner);
  });
  return out;
}

std::vector<const Symbol*> reduced_elements(const Reduction& r) {
  std::vector<const Symbol*> out;
  auto add = [&](const Expr& target) {
    const Symbol* symbol = nullptr;
    if (const auto* p = target.as<PropertyRef>()) symbol = p->symbol;
    if (const auto* n = target.as<NameRef>()) symbol = n->symbol;
    if (symbol && std::find(out.begin(), out.end(), symbol) == out.end()) out.push_back(symbol);
  };
  add(*r.target);
  for (const Assignment& a : r.also) add(*a.target);
  return out;
}

}  // namespace courier::dsl
