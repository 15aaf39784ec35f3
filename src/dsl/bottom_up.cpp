// Bottom-up steps: pushes of one value to every out-neighbour of a flagged node, which a round may
// run as pulls instead (analysis.hpp says when).
#include <algorithm>

#include "analysis_steps.hpp"
#include "courier/dsl/walk.hpp"

namespace courier::dsl {

namespace {

// A value every node offers alike: literals and scalars of the collective level only.
bool uniform(const Expr& e) {
  const Dependence d = depends(e);
  return d.pure && d.nodes.empty();
}

// The offer of `loop` (a loop over g.neighbors(v)) if it is the loop's only statement and the same
// for every neighbour: a Min or Max of a neighbour's property, set-alongs of uniform values.
const Stmt* uniform_offer(const Forall& loop) {
  if (loop.filter || loop.body.statements.size() != 1) return nullptr;
  const Stmt& only = loop.body.statements.front();
  const auto* r = only.as<Reduction>();
  if (!r || r->scope != ReductionTarget::Property || (r->op != ReductionOp::Min && r->op != ReductionOp::Max))
    return nullptr;
  auto of_neighbour = [&](const Expr& target) {
    const auto* p = target.as<PropertyRef>();
    return p && p->symbol->type.kind == TypeKind::NodeProperty && named(*p->element) == loop.symbol;
  };
  if (!of_neighbour(*r->target) || r->target->type.kind == TypeKind::Bool || !uniform(*r->value)) return nullptr;
  for (const Assignment& a : r->also)
    if (!of_neighbour(*a.target) || !uniform(*a.value)) return nullptr;
  return &only;
}

}  // namespace

void find_bottom_up(const Function& f, FunctionAnalysis& out) {
  for_each_statement(f.body, [&](const Stmt& s) {
    const auto* vertex_loop = s.as<Forall>();
    if (!vertex_loop || vertex_loop->domain != DomainKind::Nodes) return;
    const Symbol* flag = flag_filter(vertex_loop->filter.get(), vertex_loop->symbol);
    if (!flag || vertex_loop->body.statements.size() != 1) return;
    const Stmt& inner = vertex_loop->body.statements.front();
    const auto* loop = inner.as<Forall>();
    if (!loop || loop->domain != DomainKind::OutNeighbors || named(*loop->of) != vertex_loop->symbol) return;
    const Stmt* offer = uniform_offer(*loop);
    if (!offer) return;
    // Its offers wait in place for the pulse's one bulk reduction, which a pull makes the same way.
    const auto pulse = std::find_if(out.pulses.begin(), out.pulses.end(), [&](const Pulse& p) {
      return p.statement == &s && p.kind == PulseKind::VertexLoop;
    });
    if (pulse == out.pulses.end() || !pulse->aggregated) return;
    // The flag must stay as it is while the loop runs: the offer's set-alongs may not write it.
    for (const Assignment& a : offer->as<Reduction>()->also)
      if (a.target->as<PropertyRef>()->symbol == flag) return;
    if (offer->as<Reduction>()->target->as<PropertyRef>()->symbol == flag) return;
    out.bottom_up.push_back({&s, &inner, offer, flag});
  });
}

}  // namespace courier::dsl
