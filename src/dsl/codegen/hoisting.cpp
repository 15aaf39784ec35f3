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

void FunctionGenerator::compute_hoisted(const Stmt& pulse) {
  if (naive()) return;
  for (const Hoisted& h : analysis_.hoisted) {
    if (h.pulse != &pulse || h.kind != HoistKind::PerNeighbour) continue;
    const std::string n = hoisted_name(*h.expression);
    // As at a master of the loop: the neighbour is the master, read from local memory.
    const Symbol* neighbour = neighbour_of(h);
    renamed_[neighbour] = "n_";
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
    out_.line(fmt::format("// hoisted from {}:{}: once per node, not once per edge", h.expression->location.line,
                          h.expression->location.column));
    out_.line(fmt::format("{}.for_masters([&](rt::local n_) {{ {}.store(n_, {}); }});", graph_, n, value));
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
