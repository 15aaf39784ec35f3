// Hoisted expressions (analysis.hpp, "Hoisting"), in the optimised generation: one of a loop's
// neighbour becomes a property the compiler adds, computed at every master before the pulse and
// read through mirrors in the loop (at masters only in a split pull); one of the loop's vertex
// becomes a local before the loop.
#include <fmt/format.h>

#include "courier/dsl/walk.hpp"
#include "generator.hpp"

namespace courier::dsl::codegen {

namespace {

std::string hoisted_name(const Expr& e) { return fmt::format("hoisted_{}_{}_", e.location.line, e.location.column); }
std::string invariant_name(const Expr& e) {
  return fmt::format("invariant_{}_{}_", e.location.line, e.location.column);
}

// The neighbour a per-neighbour hoist is of: the loop's variable.
const Symbol* neighbour_of(const Hoisted& h) { return h.loop->as<Forall>()->symbol; }

}  // namespace

void FunctionGenerator::learn_hoisted() {
  if (naive()) return;
  for (const Hoisted& h : analysis_.hoisted) {
    const std::string n = hoisted_name(*h.expression);
    // The added property is read-only during the pulse: a plain read, which the C++ compiler may
    // keep in registers and reorder (an atomic load it may not).
    hoisted_[h.expression] = h.kind == HoistKind::PerNeighbour ? fmt::format("{}[{}]", n, name(neighbour_of(h))) : n;
  }
  for (const Invariant& i : analysis_.invariants) hoisted_[i.expression] = invariant_name(*i.expression);
}

void FunctionGenerator::unhoisted_subexpressions(const Expr& top, const std::function<void(const Expr&)>& visit) const {
  auto per_neighbour = [&](const Expr& e) {
    const Hoisted* h = naive() ? nullptr : analysis_.find_hoisted(e);
    return h && h->kind == HoistKind::PerNeighbour;
  };
  for_each_subexpression(top, visit, per_neighbour);
}

void FunctionGenerator::declare_hoisted() {
  if (naive()) return;
  for (const Hoisted& h : analysis_.hoisted) {
    if (h.kind != HoistKind::PerNeighbour) continue;
    const std::string n = hoisted_name(*h.expression);
    out_.line(fmt::format("rt::NodeProperty<{}> {}({});  // {}, of each node (hoisted)", cpp_type(h.expression->type),
                          n, graph_, to_source(*h.expression)));
    if (!in_split_pull(h)) out_.line(fmt::format("{}.track();  // read through mirrors", n));
  }
}

std::string FunctionGenerator::hoisted_store(const Hoisted& h, const std::string& master) {
  // As at a master of the loop: the neighbour is the master, read from local memory.
  const Symbol* neighbour = neighbour_of(h);
  renamed_[neighbour] = master;
  neighbours_[neighbour] = {};
  ++vertex_loops_;
  const bool outer_exclusive = exclusive_;
  exclusive_ = true;
  computing_ = h.expression;
  const std::string value = expr(*h.expression, h.expression->type);
  computing_ = nullptr;
  exclusive_ = outer_exclusive;
  --vertex_loops_;
  neighbours_.erase(neighbour);
  renamed_.erase(neighbour);
  return fmt::format("{}.store({}, {});", hoisted_name(*h.expression), master, value);
}

void FunctionGenerator::compute_carried_hoists(const Stmt& loop, const Symbol* variable) {
  if (naive()) return;
  for (const Hoisted& h : analysis_.hoisted) {
    if (h.computed_in != &loop) continue;
    out_.line(fmt::format("{}  // for the loop at {}:{} (fused)", hoisted_store(h, name(variable)),
                          h.pulse->location.line, h.pulse->location.column));
  }
}

void FunctionGenerator::compute_hoisted(const Stmt& pulse) {
  if (naive()) return;
  for (const Invariant& i : analysis_.invariants) {
    if (i.pulse != &pulse) continue;
    computing_ = i.expression;
    const std::string value = expr(*i.expression, i.expression->type);
    computing_ = nullptr;
    out_.line(fmt::format("const {} {} = {};  // loop-invariant: once, not once per node", cpp_type(i.expression->type),
                          invariant_name(*i.expression), value));
  }
  for (const Hoisted& h : analysis_.hoisted) {
    if (h.pulse != &pulse || h.kind != HoistKind::PerNeighbour) continue;
    const std::string n = hoisted_name(*h.expression);
    if (h.computed_in) {
      out_.line(fmt::format("// hoisted from {}:{}: computed by the loop at {}:{}", h.expression->location.line,
                            h.expression->location.column, h.computed_in->location.line,
                            h.computed_in->location.column));
    } else {
      out_.line(fmt::format("// hoisted from {}:{}: once per node, not once per edge", h.expression->location.line,
                            h.expression->location.column));
      out_.line(fmt::format("{}.for_masters([&](rt::local n_) {{ {} }});", graph_, hoisted_store(h, "n_")));
    }
    if (in_split_pull(h)) continue;  // read at masters only
    out_.line(fmt::format("{}.wrote();", n));
    out_.line(fmt::format("{}.refresh(rt::Fetch::changed);  // only what changed", n));
  }
}

void FunctionGenerator::compute_hoisted_locals(const Stmt& loop) {
  if (naive()) return;
  for (const Hoisted& h : analysis_.hoisted) {
    if (h.loop != &loop || h.kind != HoistKind::PerVertex) continue;
    computing_ = h.expression;
    const std::string value = expr(*h.expression, h.expression->type);
    computing_ = nullptr;
    out_.line(fmt::format("const {} {} = {};  // hoisted: once per {}, not once per edge", cpp_type(h.expression->type),
                          hoisted_name(*h.expression), value, to_source(*loop.as<Forall>()->of)));
  }
}

}  // namespace courier::dsl::codegen
