// Property moves: copies `p = q;` whose source is dead afterwards (analysis.hpp says when).
#include <fmt/format.h>

#include <optional>

#include "analysis_steps.hpp"
#include "courier/dsl/walk.hpp"

namespace courier::dsl {

namespace {

// One statement of the path from the function's body down to the copy: the block it is in and its
// index there. The first is the body's; each later block belongs to the statement before it.
struct Step {
  const Block* block = nullptr;
  std::size_t index = 0;
};

bool find_path(const Block& b, const Stmt& target, std::vector<Step>& path) {
  for (std::size_t i = 0; i < b.statements.size(); ++i) {
    const Stmt& s = b.statements[i];
    path.push_back({&b, i});
    if (&s == &target) return true;
    bool found = false;
    auto inner = [&](const Block& child) {
      if (!found) found = find_path(child, target, path);
    };
    if (const auto* n = s.as<Block>()) inner(*n);
    if (const auto* n = s.as<While>()) inner(n->body);
    if (const auto* n = s.as<DoWhile>()) inner(n->body);
    if (const auto* n = s.as<FixedPoint>()) inner(n->body);
    if (const auto* n = s.as<Forall>()) inner(n->body);
    if (const auto* n = s.as<If>()) {
      // A branch that is a block (a bare statement as a branch holds no copy found here).
      for (const Stmt* branch : {n->then_branch.get(), n->else_branch.get()})
        if (const auto* block = branch ? branch->as<Block>() : nullptr) inner(*block);
    }
    if (found) return true;
    path.pop_back();
  }
  return false;
}

// What a statement, everything inside it included, does to q.
enum class Effect : std::uint8_t { none, reads, rewrites };

class Mover {
 public:
  explicit Mover(const Symbol& q) : q_(q) {}

  // Whether q (a local property) is dead after the copy at the end of `path`: on every way on,
  // rewritten at every node before anything reads it, or never read again. On failure, why and at
  // say where.
  bool dead_after(const std::vector<Step>& path) { return onward(path, path.size() - 1, path.back().index + 1); }

  const Stmt* rewritten_by = nullptr;  // the first rewrite found, or null
  std::string why;
  Location at;

 private:
  // From statement `from` of path[level]'s block to the function's end or a rewrite.
  bool onward(const std::vector<Step>& path, std::size_t level, std::size_t from) {
    const Block& b = *path[level].block;
    if (const auto decided = first_decision(b, from, b.statements.size())) return *decided;
    if (level == 0) return true;  // the function ends
    const Stmt& parent = path[level - 1].block->statements[path[level - 1].index];
    if (const Expr* condition = loop_condition(parent)) {
      // The loop tests its condition, then either runs its body again from the top or ends.
      if (reads(*condition)) return fail(condition->location, "the loop's condition reads it");
      if (!around(b, path[level].index)) return false;
    } else if (!parent.as<If>() && !parent.as<Block>()) {
      return fail(parent.location, "the copy is inside a loop this analysis does not follow");
    }
    return onward(path, level - 1, path[level - 1].index + 1);
  }

  // The statements of a loop body before `until` (the one holding the copy), run again next time.
  bool around(const Block& body, std::size_t until) {
    if (const auto decided = first_decision(body, 0, until)) return *decided;
    return fail(body.statements[until].location, "the loop comes back to the copy, which reads it");
  }

  // Statements [from, to) of `b`: true or false once one decides (a rewrite, a read, a return),
  // nothing when none does.
  std::optional<bool> first_decision(const Block& b, std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) {
      switch (effect(b.statements[i])) {
        case Effect::rewrites:
          if (!rewritten_by) rewritten_by = &b.statements[i];
          return true;
        case Effect::reads:
          return false;
        case Effect::none:
          if (b.statements[i].as<Return>()) return true;
      }
    }
    return std::nullopt;
  }

  static const Expr* loop_condition(const Stmt& s) {
    if (const auto* n = s.as<While>()) return n->condition.get();
    if (const auto* n = s.as<DoWhile>()) return n->condition.get();
    if (const auto* n = s.as<FixedPoint>()) return n->condition.get();
    return nullptr;
  }

  bool reads(const Expr& e) const {
    bool found = false;
    for_each_subexpression(e, [&](const Expr& x) {
      if (const auto* n = x.as<NameRef>(); n && n->symbol == &q_) found = true;
      if (const auto* p = x.as<PropertyRef>(); p && p->symbol == &q_) found = true;
    });
    return found;
  }

  // Does anything in `s` read q (a reduction of q reads it too)? Sets why and at for the first.
  bool reads_inside(const Stmt& s) {
    bool found = false;
    for_each_statement(s, [&](const Stmt& inner) {
      if (found) return;
      for (const Access& a : own_accesses(inner)) {
        if (a.symbol == &q_ && !a.update) {
          found = true;
          fail(a.location, "it is read here first");
          return;
        }
      }
      if (const auto* r = inner.as<Reduction>(); r && r->scope == ReductionTarget::Property) {
        const auto* p = r->target->as<PropertyRef>();
        if (p && p->symbol == &q_) {
          found = true;
          fail(inner.location, "it is reduced here first (a reduction reads what it updates)");
        }
      }
    });
    return found;
  }

  Effect effect(const Stmt& s) {
    if (reads_inside(s)) return Effect::reads;
    if (const auto* a = s.as<Assignment>(); a && a->property_copy && named(*a->target) == &q_) return Effect::rewrites;
    if (const auto* c = s.as<CallStatement>()) {
      const auto& call = *c->call->as<MethodCall>();
      if (call.resolved == GraphMethod::AttachNodeProperty)
        for (const Argument& arg : call.arguments)
          if (arg.property == &q_) return Effect::rewrites;
    }
    // forall (v in g.nodes()) { ... v.q = E; ... }: every node's q, nothing reading it (above).
    if (const auto* f = s.as<Forall>(); f && f->domain == DomainKind::Nodes && !f->filter) {
      for (const Stmt& inner : f->body.statements) {
        const auto* a = inner.as<Assignment>();
        const auto* p = a ? a->target->as<PropertyRef>() : nullptr;
        if (p && p->symbol == &q_ && named(*p->element) == f->symbol) return Effect::rewrites;
      }
    }
    return Effect::none;
  }

  bool fail(Location where, std::string reason) {
    if (why.empty()) {
      why = std::move(reason);
      at = where;
    }
    return false;
  }

  const Symbol& q_;
};

}  // namespace

void find_property_moves(const Function& f, FunctionAnalysis& out) {
  for_each_statement(f.body, [&](const Stmt& s) {
    const auto* a = s.as<Assignment>();
    if (!a || !a->property_copy) return;
    const Symbol* q = named(*a->value);
    if (!q || q->type.kind != TypeKind::NodeProperty) return;
    if (q->type.element == TypeKind::Bool) {
      out.not_moved.push_back({&s, "a bool property is copied a word per 64 nodes", s.location});
      return;
    }
    if (q->kind != SymbolKind::Variable) {
      out.not_moved.push_back(
          {&s, fmt::format("{} is a parameter: its values are the function's result", q->name), s.location});
      return;
    }
    std::vector<Step> path;
    if (!find_path(f.body, s, path)) {
      out.not_moved.push_back({&s, "expected the copy as a statement of a block", s.location});
      return;
    }
    Mover mover(*q);
    if (mover.dead_after(path)) {
      out.moves.push_back({&s, mover.rewritten_by});
    } else {
      out.not_moved.push_back({&s, fmt::format("{} is not dead after it: {}", q->name, mover.why), mover.at});
    }
  });
}

}  // namespace courier::dsl
