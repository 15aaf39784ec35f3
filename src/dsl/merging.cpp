// Merged pulses (analysis.hpp states the rule): consecutive aggregated vertex loops of a fixedPoint
// whose Min/Max reductions all set the flag the fixedPoint follows share one bulk reduction.
#include <algorithm>
#include <map>
#include <set>

#include "analysis_steps.hpp"
#include "courier/dsl/walk.hpp"

namespace courier::dsl {

namespace {

const Symbol* named(const Expr& e) {
  const auto* n = e.as<NameRef>();
  return n ? n->symbol : nullptr;
}

// `v.X == True` or `v.X` on loop variable v: X, else null.
const Symbol* flag_of(const Expr& filter, const Symbol* variable) {
  const Expr* test = &filter;
  if (const auto* b = filter.as<Binary>(); b && b->op == BinaryOp::Equal) {
    const auto* literal = b->right->as<BoolLiteral>();
    if (!literal || !literal->value) return nullptr;
    test = b->left.get();
  }
  const auto* p = test->as<PropertyRef>();
  return p && named(*p->element) == variable ? p->symbol : nullptr;
}

// The symbols a statement and everything inside it update.
std::set<const Symbol*> updates_in(const Stmt& s) {
  std::set<const Symbol*> out;
  for_each_statement(s, [&](const Stmt& inner) {
    for (const Access& a : own_accesses(inner))
      if (a.update) out.insert(a.symbol);
  });
  return out;
}

// One of the loops: its facts.
struct Loop {
  const Stmt* statement = nullptr;
  const Forall* forall = nullptr;
  std::set<const Symbol*> writes;
};

// A property's reductions: one operator and one set of companions (target, literal value).
struct Signature {
  ReductionOp op = ReductionOp::Min;
  std::vector<std::pair<const Symbol*, bool>> companions;
  bool operator==(const Signature&) const = default;
};

class Merger {
 public:
  Merger(const FixedPoint& fp, FunctionAnalysis& out) : fp_(fp), out_(out) {}

  void run() {
    const auto* u = fp_.condition->as<Unary>();
    condition_ = u && u->op == UnaryOp::Not ? named(*u->operand) : nullptr;
    if (!condition_ || condition_->type.kind != TypeKind::NodeProperty) return;
    const auto& body = fp_.body.statements;
    for (std::size_t i = 0; i < body.size(); ++i) {
      std::vector<Loop> group;
      std::set<const Symbol*> flags;
      std::map<const Symbol*, Signature> signatures;
      if (!admit(body[i], group, flags, signatures)) continue;
      std::size_t j = i + 1;
      while (j < body.size() && admit(body[j], group, flags, signatures) && flags.size() == 1 &&
             repaired(*flags.begin(), j + 1))
        ++j;
      if (j - i < 2) continue;
      for (std::size_t k = i + 1; k < j; ++k) {
        Pulse* p = pulse_of(body[k]);
        p->joins = &body[k - 1];
        p->repaired_by = *flags.begin();
      }
      i = j - 1;
    }
  }

 private:
  Pulse* pulse_of(const Stmt& s) {
    for (Pulse& p : out_.pulses)
      if (p.statement == &s && p.kind == PulseKind::VertexLoop) return &p;
    return nullptr;
  }

  // Adds `s` to the group when it keeps the group mergeable (rules a and c; b is repaired()).
  bool admit(const Stmt& s, std::vector<Loop>& group, std::set<const Symbol*>& flags,
             std::map<const Symbol*, Signature>& signatures) {
    const auto* f = s.as<Forall>();
    const Pulse* p = pulse_of(s);
    if (!f || f->domain != DomainKind::Nodes || !p || !p->aggregated || p->reductions.empty() || !p->assigned.empty() ||
        !p->remote_writes.empty())
      return false;
    if (f->filter && flag_of(*f->filter, f->symbol) != condition_) return false;
    Loop loop{&s, f, updates_in(s)};
    std::map<const Symbol*, Signature> mine = signatures;
    std::set<const Symbol*> my_flags = flags;
    for (const Stmt* st : p->reductions) {
      const auto& r = *st->as<Reduction>();
      const auto* target = r.target->as<PropertyRef>();
      if (r.scope != ReductionTarget::Property || (r.op != ReductionOp::Min && r.op != ReductionOp::Max) || !target ||
          target->symbol->type.kind != TypeKind::NodeProperty)
        return false;
      Signature sig{r.op, {}};
      for (const Assignment& a : r.also) {
        const auto* t = a.target->as<PropertyRef>();
        const auto* value = a.value->as<BoolLiteral>();
        if (!t || !value) return false;
        sig.companions.emplace_back(t->symbol, value->value);
        if (value->value) my_flags.insert(t->symbol);
      }
      if (std::none_of(sig.companions.begin(), sig.companions.end(), [](const auto& c) { return c.second; }))
        return false;  // a reduction that flags nothing: its lowering would not be repaired
      const auto [it, added] = mine.emplace(target->symbol, sig);
      if (!added && !(it->second == sig)) return false;
    }
    for (const Loop& other : group) {
      if (!reads_only_offers(loop, other, mine) || !reads_only_offers(other, loop, mine)) return false;
    }
    group.push_back(std::move(loop));
    flags = std::move(my_flags);
    signatures = std::move(mine);
    return true;
  }

  // Rule (c): `reader` reads nothing `writer` writes, but for its own node's value of a property
  // both reduce, offered into a reduction of it.
  static bool reads_only_offers(const Loop& reader, const Loop& writer,
                                const std::map<const Symbol*, Signature>& signatures) {
    bool clean = true;
    for_each_statement(*reader.statement, [&](const Stmt& st) {
      std::set<const Expr*> offered;  // the reads of an allowed offer
      if (const auto* r = st.as<Reduction>()) {
        const auto* target = r->target->as<PropertyRef>();
        if (target && signatures.count(target->symbol) && signatures.at(target->symbol).op == r->op) {
          if (const Expr* read = offer(*r->value, target->symbol, reader.forall->symbol, writer.writes))
            offered.insert(read);
        }
      }
      for_each_own_expression(st, [&](const Expr& top) {
        for_each_subexpression(top, [&](const Expr& e) {
          const auto* p = e.as<PropertyRef>();
          const Symbol* read = p ? p->symbol : named(e);
          if (read && writer.writes.count(read) && !offered.count(&e) && !is_target(st, e)) clean = false;
        });
      });
    });
    return clean;
  }

  // `value` is `v.P`, or `v.P + t` / `t + v.P` with t reading nothing written: that read, else null.
  static const Expr* offer(const Expr& value, const Symbol* property, const Symbol* variable,
                           const std::set<const Symbol*>& written) {
    auto own_read = [&](const Expr& e) -> const Expr* {
      const auto* p = e.as<PropertyRef>();
      return p && p->symbol == property && named(*p->element) == variable ? &e : nullptr;
    };
    auto untouched = [&](const Expr& e) {
      bool ok = true;
      for_each_subexpression(e, [&](const Expr& x) {
        const auto* p = x.as<PropertyRef>();
        const Symbol* s = p ? p->symbol : named(x);
        if (s && written.count(s)) ok = false;
      });
      return ok;
    };
    if (const Expr* read = own_read(value)) return read;
    const auto* b = value.as<Binary>();
    if (!b || b->op != BinaryOp::Add) return nullptr;
    if (const Expr* read = own_read(*b->left); read && untouched(*b->right)) return read;
    if (const Expr* read = own_read(*b->right); read && untouched(*b->left)) return read;
    return nullptr;
  }

  // Is `e` an updated target of `st` (a reduction's or a companion's), not a read?
  static bool is_target(const Stmt& st, const Expr& e) {
    if (const auto* r = st.as<Reduction>()) {
      if (r->target.get() == &e) return true;
      for (const Assignment& a : r->also)
        if (a.target.get() == &e) return true;
    }
    if (const auto* a = st.as<Assignment>()) return a->target.get() == &e;
    return false;
  }

  // Rule (b) for a group ending before statement `end` of the body: flag F is the condition's, or
  // copied into it later with nothing else writing the condition or, in between, F.
  bool repaired(const Symbol* flag, std::size_t end) const {
    if (flag == condition_) return true;
    const auto& body = fp_.body.statements;
    std::size_t copy = body.size();
    for (std::size_t k = end; k < body.size() && copy == body.size(); ++k) {
      const auto* a = body[k].as<Assignment>();
      if (a && a->property_copy && named(*a->target) == condition_ && named(*a->value) == flag) copy = k;
    }
    if (copy == body.size()) return false;
    for (std::size_t k = end; k < copy; ++k)
      if (updates_in(body[k]).count(flag)) return false;
    for (std::size_t k = 0; k < body.size(); ++k)
      if (k != copy && updates_in(body[k]).count(condition_)) return false;
    return true;
  }

  const FixedPoint& fp_;
  FunctionAnalysis& out_;
  const Symbol* condition_ = nullptr;
};

}  // namespace

void find_merged_pulses(const Function& f, FunctionAnalysis& out) {
  for_each_statement(f.body, [&](const Stmt& s) {
    if (const auto* fp = s.as<FixedPoint>()) Merger(*fp, out).run();
  });
}

}  // namespace courier::dsl
