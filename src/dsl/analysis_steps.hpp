#pragma once
// The analyses one by one (analyse() runs them in this order; each later one reads the earlier ones'
// results).
#include <optional>
#include <vector>

#include "accesses.hpp"
#include "courier/dsl/analysis.hpp"

namespace courier::dsl {

// Definition 1 on a region of code: the statements `roots` and everything inside them, plus
// `header`, what the region's own header reads (a loop's source, a BFS's root).
struct Definition1 {
  bool holds = false;
  std::vector<const Stmt*> reductions;  // the reduction statements it reaches
  std::vector<const Symbol*> elements;  // E, when it reaches exactly one
  std::optional<Access> conflict;       // an access of E outside R, when there is one
};
Definition1 definition1(const std::vector<const Stmt*>& roots, const std::vector<Access>& header = {});

void find_reduction_exclusive(const Function& f, FunctionAnalysis& out);  // Definition 1, Lemma 1
void find_cache_safety(const Function& f, FunctionAnalysis& out);         // Definition 2
void find_pulses(const Function& f, FunctionAnalysis& out);               // Definition 3
void find_hoisting(const Function& f, FunctionAnalysis& out);             // loop-invariant expressions
void find_split_pulls(const Function& f, FunctionAnalysis& out);          // in-edge sums over an outgoing cut
void find_bottom_up(const Function& f, FunctionAnalysis& out);            // pushes that may pull (after pulses)
void find_property_moves(const Function& f, FunctionAnalysis& out);       // copies whose source is dead

// The symbol an expression names, if it is a bare name.
inline const Symbol* named(const Expr& e) {
  const auto* n = e.as<NameRef>();
  return n ? n->symbol : nullptr;
}

// What one expression depends on (hoisting and split pulls).
struct Dependence {
  bool pure = true;                  // only literals, scalars of the collective level, one node's facts
  bool operation = false;            // an operator somewhere: worth computing once
  bool integer_division = false;     // a / or % on integers
  std::vector<const Symbol*> nodes;  // the nodes whose properties or degrees it reads
  std::vector<const Symbol*> reads;  // the properties and scalars it reads
};
Dependence depends(const Expr& top);

}  // namespace courier::dsl
