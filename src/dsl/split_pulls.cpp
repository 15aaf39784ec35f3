// Split pulls: in-edge sums that every rank can compute over its own edges (analysis.hpp says when).
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "analysis_steps.hpp"
#include "courier/dsl/walk.hpp"

namespace courier::dsl {

namespace {

// The statement `s` adds to a scalar: its target and term, or nulls.
std::pair<const Symbol*, const Expr*> added(const Stmt& s) {
  if (const auto* a = s.as<Assignment>()) {
    const auto* sum = a->value->as<Binary>();
    const Symbol* target = named(*a->target);
    if (target && sum && sum->op == BinaryOp::Add && named(*sum->left) == target) return {target, sum->right.get()};
  }
  if (const auto* r = s.as<Reduction>(); r && r->op == ReductionOp::Add && r->scope == ReductionTarget::Private)
    if (const Symbol* target = named(*r->target)) return {target, r->value.get()};
  return {nullptr, nullptr};
}

// Does adding `term` to a scalar of type `sum` in one step at a time equal adding it in a sum of
// that type? Yes when the term converts to it exactly.
bool sums_alike(const Type& sum, const Type& term) {
  if (sum.kind == term.kind) return true;
  if (sum.kind == TypeKind::Double) return term.kind != TypeKind::Long;  // int and float convert exactly
  return sum.kind == TypeKind::Long && term.kind == TypeKind::Int;
}

class Splitter {
 public:
  explicit Splitter(FunctionAnalysis& out) : out_(out) {}

  void visit(const Stmt& s, const Stmt* pulse) {
    const auto* f = s.as<Forall>();
    if (f && f->domain == DomainKind::Nodes) {
      pulse = &s;
      written_ = updated_in(s);
    }
    if (f && f->domain == DomainKind::InNeighbors) judge(s, *f, pulse);
    for_each_child(s, [&](const Stmt& inner) { visit(inner, pulse); });
  }

 private:
  void judge(const Stmt& s, const Forall& f, const Stmt* pulse) {
    auto no = [&](Location at, std::string why) { out_.not_split.push_back({&s, std::move(why), at}); };
    const Symbol* of = named(*f.of);
    if (!pulse || !of || of != pulse->as<Forall>()->symbol)
      return no(f.of->location, "expected the in-neighbours of a forall (v in g.nodes())'s node");
    if (f.filter) return no(f.filter->location, "the loop has a filter");
    if (f.body.statements.size() != 1)
      return no(s.location, "expected one statement adding to a scalar (s = s + E or s += E)");
    const Stmt& only = f.body.statements.front();
    const auto [sum, term] = added(only);
    if (!sum) return no(only.location, "expected a statement adding to a scalar (s = s + E or s += E)");
    if (sum->vertex_depth == 0 || !sum->type.is_numeric())
      return no(only.location, fmt::format("'{}' is not a number of the node's own iteration", sum->name));
    if (!sums_alike(sum->type, term->type))
      return no(term->location, fmt::format("a {} term changes value when added to '{}' ({})", to_string(term->type),
                                            sum->name, to_string(sum->type)));
    const Dependence d = depends(*term);
    const bool neighbour_only =
        std::all_of(d.nodes.begin(), d.nodes.end(), [&](const Symbol* n) { return n == f.symbol; });
    if (!d.pure || !neighbour_only)
      return no(term->location,
                "the term reads more than the neighbour's properties and degrees, literals and collective scalars");
    for (const Symbol* read : d.reads)
      if (written_.count(read))
        return no(term->location, fmt::format("the term reads '{}', which the vertex loop writes", read->name));
    out_.split_pulls.push_back({&s, pulse, sum, term});
  }

  FunctionAnalysis& out_;
  std::set<const Symbol*> written_;  // in the current vertex loop
};

}  // namespace

void find_split_pulls(const Function& f, FunctionAnalysis& out) {
  Splitter splitter(out);
  for (const Stmt& s : f.body.statements) splitter.visit(s, nullptr);
  if (out.not_split.empty() || out.split_pulls.empty()) return;
  // All or none: one loop that needs complete in-edges makes the partition keep them.
  const NotSplit& first = out.not_split.front();
  for (const SplitPull& p : out.split_pulls)
    out.not_split.push_back({p.loop,
                             fmt::format("the loop at {}:{} cannot be split, so masters keep their complete in-edges",
                                         first.loop->location.line, first.loop->location.column),
                             first.loop->location});
  out.split_pulls.clear();
  std::sort(out.not_split.begin(), out.not_split.end(), [](const NotSplit& a, const NotSplit& b) {
    return std::pair(a.loop->location.line, a.loop->location.column) <
           std::pair(b.loop->location.line, b.loop->location.column);
  });
}

}  // namespace courier::dsl
