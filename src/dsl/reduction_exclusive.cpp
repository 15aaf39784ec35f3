// Definition 1 and Lemma 1 of paper 004: reduction-exclusive statements.
#include <algorithm>

#include "analysis_steps.hpp"
#include "courier/dsl/walk.hpp"

namespace courier::dsl {

Definition1 definition1(const std::vector<const Stmt*>& roots, const std::vector<Access>& header) {
  Definition1 d;
  for (const Stmt* root : roots) {
    for (const Stmt* r : reductions_in(*root)) d.reductions.push_back(r);
  }
  if (d.reductions.size() != 1) return d;
  const Stmt* reduction = d.reductions.front();
  d.elements = reduced_elements(*reduction->as<Reduction>());
  auto in_elements = [&](const Access& a) {
    return std::find(d.elements.begin(), d.elements.end(), a.symbol) != d.elements.end();
  };
  auto look = [&](const std::vector<Access>& accesses) {
    if (d.conflict) return;
    const auto it = std::find_if(accesses.begin(), accesses.end(), in_elements);
    if (it != accesses.end()) d.conflict = *it;
  };
  look(header);
  for (const Stmt* root : roots) {
    for_each_statement(*root, [&](const Stmt& s) {
      if (&s != reduction) look(own_accesses(s));
    });
  }
  d.holds = !d.conflict;
  return d;
}

namespace {

class Finder {
 public:
  explicit Finder(FunctionAnalysis& out) : out_(out) {}

  // `outermost`: the outermost statement around `s` that satisfies Definition 1, if any.
  void visit(const Stmt& s, const ExclusiveStatement* outermost) {
    if (s.as<Block>()) {
      for_each_child(s, [&](const Stmt& inner) { visit(inner, outermost); });
      return;
    }
    std::optional<ExclusiveStatement> mine;
    if (outermost) {
      out_.exclusive.push_back({&s, outermost->reduction, outermost->elements, outermost->statement});
    } else if (Definition1 d = definition1({&s}); d.holds) {
      mine = ExclusiveStatement{&s, d.reductions.front(), d.elements, nullptr};
      out_.exclusive.push_back(*mine);
    } else if (!d.reductions.empty()) {
      NotExclusive n{&s, d.reductions, nullptr, {}, false};
      if (d.conflict) {
        n.conflict = d.conflict->symbol;
        n.conflict_location = d.conflict->location;
        n.conflict_updates = d.conflict->update;
      }
      out_.not_exclusive.push_back(std::move(n));
    }
    const ExclusiveStatement* inner_outermost = outermost ? outermost : (mine ? &*mine : nullptr);
    for_each_child(s, [&](const Stmt& inner) { visit(inner, inner_outermost); });
  }

 private:
  FunctionAnalysis& out_;
};

}  // namespace

void find_reduction_exclusive(const Function& f, FunctionAnalysis& out) {
  Finder finder(out);
  for (const Stmt& s : f.body.statements) finder.visit(s, nullptr);
}

}  // namespace courier::dsl
