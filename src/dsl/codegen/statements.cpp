// Statements as C++. Collective statements are written as they are (every rank runs them alike);
// a vertex loop is a pulse (pulses.cpp) whose body runs in a lambda per master; a neighbour loop
// walks the master's row in CSR order (optimised) or its neighbours' ids (naive).
#include <fmt/format.h>

#include "../accesses.hpp"
#include "courier/dsl/walk.hpp"
#include "generator.hpp"

namespace courier::dsl::codegen {

namespace {

const Symbol* named(const Expr& e) {
  const auto* n = e.as<NameRef>();
  return n ? n->symbol : nullptr;
}

bool is_scalar(const Type& t) { return t.is_numeric() || t.kind == TypeKind::Bool || t.kind == TypeKind::Node; }

}  // namespace

std::string FunctionGenerator::signature() const {
  std::string parameters;
  for (const Parameter& p : f_.parameters) {
    if (!parameters.empty()) parameters += ", ";
    const std::string n = name(p.symbol);
    switch (p.type.kind) {
      case TypeKind::Graph:
      case TypeKind::NodeProperty:
      case TypeKind::EdgeProperty:
        parameters += fmt::format("{}& {}", cpp_type(p.type), n);
        break;
      case TypeKind::NodeSet:
        parameters += fmt::format("const rt::NodeSet& {}", n);
        break;
      default:
        parameters += fmt::format("{} {}", cpp_type(p.type), n);
    }
  }
  return fmt::format("{} {}({})", cpp_type(f_.result), f_.name, parameters);
}

void FunctionGenerator::generate() {
  out_.line(fmt::format("// {}: {}", f_.name,
                        naive() ? "the naive generation (StarPlat's distributed backend)"
                                : "the optimised generation (paper 004's transformations)"));
  out_.directive(f_.location);
  out_.open(signature());
  for (const Parameter& p : f_.parameters) {
    if (uses_.count(p.symbol) == 0) out_.line(fmt::format("(void){};", name(p.symbol)));
  }
  if (out_degrees_) out_.line(fmt::format("{}.prepare_out_degrees();", graph_));
  if (in_degrees_) out_.line(fmt::format("{}.prepare_in_degrees();", graph_));
  if (adjacency_) out_.line(fmt::format("{}.prepare_adjacency();", graph_));
  declare_hoisted();
  declare_pulls();
  for (const Parameter& p : f_.parameters) {
    if (tracked(p.symbol)) out_.line(fmt::format("{}.track();  // read through mirrors", name(p.symbol)));
    if (set_per_edge_.count(p.symbol))  // it may view the graph's weights until then
      out_.line(fmt::format("{}.own();  // written edge by edge", name(p.symbol)));
  }
  for (const Stmt& s : f_.body.statements) {
    statement(s);
    const auto* d = s.as<Declaration>();
    if (d && is_scalar(d->type)) kept_.push_back(d->symbol);
  }
  if (f_.body.statements.empty() || !f_.body.statements.back().as<Return>()) keep_scalars();
  out_.close();
}

void FunctionGenerator::keep_scalars() {
  if (narrows_) out_.line(fmt::format("{}.check_narrowing();", graph_));
  for (const Symbol* s : kept_) out_.line(fmt::format("{}.keep(\"{}\", {});", graph_, s->name, name(s)));
}

void FunctionGenerator::statements(const Block& b) {
  for (const Stmt& s : b.statements) statement(s);
}

void FunctionGenerator::branch(const Stmt& s) {
  if (const auto* b = s.as<Block>()) {
    statements(*b);
  } else {
    statement(s);
  }
}

void FunctionGenerator::statement(const Stmt& s) {
  if (const auto* b = s.as<Block>()) {
    out_.open("");
    statements(*b);
    out_.close();
    return;
  }
  const bool outer = exclusive_;
  out_.directive(s.location);
  enter(s);
  if (const auto* n = s.as<Declaration>()) {
    declaration(s, *n);
  } else if (const auto* n = s.as<Assignment>()) {
    assignment(s, *n);
  } else if (const auto* n = s.as<Reduction>()) {
    reduction(s, *n);
  } else if (const auto* n = s.as<If>()) {
    out_.open(fmt::format("if ({})", expr(*n->condition)));
    branch(*n->then_branch);
    if (n->else_branch) {
      out_.reopen("else");
      branch(*n->else_branch);
    }
    out_.close();
  } else if (const auto* n = s.as<While>()) {
    out_.open(fmt::format("while ({})", expr(*n->condition)));
    if (vertex_loops_ == 0 && contains_pulse(n->body)) out_.line(fmt::format("{}.next_round(1);", graph_));
    statements(n->body);
    out_.close();
  } else if (const auto* n = s.as<DoWhile>()) {
    const std::string condition = expr(*n->condition);
    out_.open("do");
    if (vertex_loops_ == 0 && contains_pulse(n->body)) out_.line(fmt::format("{}.next_round(1);", graph_));
    statements(n->body);
    out_.close(fmt::format(" while ({});", condition));
  } else if (const auto* n = s.as<Forall>()) {
    forall(s, *n);
  } else if (const auto* n = s.as<FixedPoint>()) {
    fixed_point(*n);
  } else if (const auto* n = s.as<IterateInBFS>()) {
    iterate_in_bfs(s, *n);
  } else if (const auto* n = s.as<Return>()) {
    return_statement(*n);
  } else if (const auto* n = s.as<CallStatement>()) {
    call_statement(*n);
  }
  exclusive_ = outer;
}

bool FunctionGenerator::contains_pulse(const Block& b) const {
  for (const Stmt& s : b.statements) {
    bool found = false;
    for_each_statement(s, [&](const Stmt& inner) {
      if (inner.as<IterateInBFS>()) found = true;
      const auto* f = inner.as<Forall>();
      if (f && owned(f->symbol)) found = true;
    });
    if (found) return true;
  }
  return false;
}

void FunctionGenerator::declaration(const Stmt& s, const Declaration& d) {
  const Symbol* symbol = d.symbol;
  const std::string n = name(symbol);
  if (d.type.kind == TypeKind::NodeProperty || d.type.kind == TypeKind::EdgeProperty) {
    out_.line(fmt::format("{}{} {}({});", maybe_unused(symbol), cpp_type(d.type), n, graph_));
    if (tracked(symbol)) out_.line(fmt::format("{}.track();  // read through mirrors", n));
    return;
  }
  if (d.type.kind == TypeKind::Edge) {
    if (!d.init) unsupported(s.location, "expected an edge declared with its value (edge e = g.get_edge(u, v))");
    bool incoming = false;
    const std::string edge = edge_of(*d.init, &incoming);
    edges_[symbol] = incoming;
    out_.line(fmt::format("{}const rt::edge {} = {};", maybe_unused(symbol), n, edge));
    return;
  }
  if (d.init) {
    out_.line(fmt::format("{}{} {} = {};", maybe_unused(symbol), cpp_type(d.type), n, expr(*d.init, d.type)));
  } else {
    out_.line(fmt::format("{}{} {}{{}};", maybe_unused(symbol), cpp_type(d.type), n));
  }
}

void FunctionGenerator::assignment(const Stmt& s, const Assignment& a) {
  if (a.property_copy) {
    // A source dead after the copy hands over its values (analysis.hpp, "Property moves"); the
    // naive generation copies, as StarPlat's backend does, and its windows stay where they are.
    const bool move = !naive() && analysis_.find_move(s) != nullptr;
    out_.line(fmt::format("{}.{}({});{}", name(named(*a.target)), move ? "move_from" : "copy_from",
                          name(named(*a.value)), move ? "  // the source is dead after it: moved" : ""));
    return;
  }
  const std::string value = expr(*a.value, a.target->type);
  if (const Symbol* scalar = named(*a.target)) {
    out_.line(fmt::format("{} = {};", name(scalar), value));
    return;
  }
  const auto& p = *a.target->as<PropertyRef>();
  const std::string property = name(p.symbol);
  if (p.element->type.kind == TypeKind::Edge) {
    bool incoming = false;
    const std::string edge = edge_of(*p.element, &incoming);
    if (incoming) unsupported(s.location, "expected an assignment to an out-edge's property, found an in-edge's");
    out_.line(fmt::format("{}.set_out({}, {});", property, edge, value));
    return;
  }
  if (vertex_loops_ == 0) {
    out_.line(fmt::format("{}.assign_everywhere({}, {});", property, expr(*p.element), value));
    return;
  }
  if (!owned(named(*p.element))) {
    unsupported(
        s.location,
        fmt::format("expected an assignment to a property of the vertex loop's node, found one to {}.{} (a node "
                    "another rank may own): update it with a reduction (Min, Max, +=, ...)",
                    to_source(*p.element), p.property));
  }
  out_.line(fmt::format("{}.{}({}, {});", property, bypass() ? "store" : "put", name(named(*p.element)), value));
}

void FunctionGenerator::reduction(const Stmt& s, const Reduction& r) {
  const std::string value = reduction_value(r);
  if (r.scope == ReductionTarget::Private) {
    const std::string target = name(named(*r.target));
    switch (r.op) {
      case ReductionOp::Add:
      case ReductionOp::Subtract:
      case ReductionOp::Multiply:
        out_.line(fmt::format("{} {} {};", target, spelling(r.op), expr(*r.value, r.target->type)));
        break;
      case ReductionOp::And:
        out_.line(fmt::format("{0} = {0} && {1};", target, value));
        break;
      case ReductionOp::Or:
        out_.line(fmt::format("{0} = {0} || {1};", target, value));
        break;
      case ReductionOp::Min:
      case ReductionOp::Max:
        out_.line(fmt::format("{0} = std::{1}<{2}>({0}, {3});", target, r.op == ReductionOp::Min ? "min" : "max",
                              cpp_type(r.target->type), value));
        break;
    }
    return;
  }
  const std::string op = reduction_op(r.op);
  const auto* p = r.target->as<PropertyRef>();
  if (vertex_loops_ == 0) {
    if (!p || !r.also.empty()) unsupported(s.location, "expected a reduction of one node's property here");
    out_.line(fmt::format("{}.reduce_everywhere<{}>({}, {});", name(p->symbol), op, expr(*p->element), value));
    return;
  }
  const ReductionPlan* plan = reduction_plan(s);
  if (!plan) unsupported(s.location, "expected this reduction inside a vertex loop");
  if (r.scope == ReductionTarget::Shared) {
    out_.line(fmt::format("{}.reduce(member_, {});", plan->helper, value));
    return;
  }
  const std::string target = local_of(*p->element);
  if (plan->queued) {
    out_.line(fmt::format("{}.push(member_, {}, {});", plan->helper, target, value));
    return;
  }
  if (const auto view = reducers_.find({p->symbol, op}); view != reducers_.end()) {
    out_.line(fmt::format("{}.{}({}, {}{});", view->second, bottom_up_ ? "reduce_exclusive" : "reduce", target, value,
                          plan->also.empty() ? "" : ", " + plan->also));
    return;
  }
  out_.line(fmt::format("{}.reduce<{}>({}, {}{});", name(p->symbol), op, target, value,
                        plan->also.empty() ? "" : ", " + plan->also));
}

void FunctionGenerator::forall(const Stmt& s, const Forall& f) {
  if (f.domain == DomainKind::OutNeighbors || f.domain == DomainKind::InNeighbors) return neighbour_loop(s, f);
  if (!owned(f.symbol)) {  // `for (x in set)`: in order, on every rank alike
    out_.open(fmt::format("for (const rt::node {} : {})", name(f.symbol), expr(*f.source)));
    statements(f.body);
    out_.close();
    return;
  }
  compute_hoisted(s);
  compute_split_pulls(s);
  const BottomUp* bottom_up = naive() ? nullptr : analysis_.find_bottom_up(s);
  if (bottom_up) {
    out_.open(fmt::format("if ({}.pulls({}))", direction_name(*bottom_up), name(bottom_up->flag)));
    bottom_up_ = true;
    pulse(s, {&s}, PulseKind::VertexLoop, [&] { pull_loop(*bottom_up); });
    bottom_up_ = false;
    out_.reopen("else");
  }
  pulse(s, {&s}, PulseKind::VertexLoop, [&] {
    const Symbol* flag = naive() ? nullptr : flag_filter(f.filter.get(), f.symbol);
    owned_.push_back(f.symbol);
    ++vertex_loops_;
    if (flag) {
      out_.open(fmt::format("{}.for_flagged({}, {}", graph_, name(flag), lambda_head(f.symbol)));
    } else if (f.domain == DomainKind::Set) {
      out_.open(fmt::format("{}.for_set({}, {}", graph_, expr(*f.source), lambda_head(f.symbol)));
    } else {
      out_.open(fmt::format("{}.for_nodes({}", graph_, lambda_head(f.symbol)));
      compute_carried_hoists(s, f.symbol);  // every node's, before the filter
    }
    if (f.filter && !flag) out_.line(fmt::format("if (!{}) return;", expr(*f.filter)));
    statements(f.body);
    out_.close(");");
    --vertex_loops_;
    owned_.pop_back();
  });
  if (bottom_up) out_.close();
}

std::string FunctionGenerator::direction_name(const BottomUp& b) {
  return fmt::format("direction_{}_{}_", b.pulse->location.line, b.pulse->location.column);
}

void FunctionGenerator::pull_loop(const BottomUp& b) {
  const auto& vertex_loop = *b.pulse->as<Forall>();
  const auto& loop = *b.loop->as<Forall>();
  const auto& offer = *b.reduction->as<Reduction>();
  const std::string v = name(vertex_loop.symbol), nbr = name(loop.symbol);
  out_.line("// bottom-up: every node the offer would still move takes it from its first flagged in-neighbour");
  // A chunk of nodes at a time: what every node reads (scalars, reducers, the flags, the rows) is
  // set up once, as locals the compiler keeps in registers.
  out_.open(fmt::format(
      "{}.for_pulled([&](const auto in_, const rt::local begin_, const rt::local end_, [[maybe_unused]] unsigned "
      "member_)",
      graph_));
  ++vertex_loops_;
  const std::vector<const Symbol*> snapshots = snapshot_scalars(*b.loop);
  const auto views = reducer_views(*b.loop);
  const auto view = reducers_.find({offer.target->as<PropertyRef>()->symbol, reduction_op(offer.op)});
  if (view == reducers_.end()) unsupported(b.reduction->location, "expected the offer to reduce in place");
  // The flag stays as it is while the loop runs (find_bottom_up), so it is read with plain loads.
  const std::string flagged = name(b.flag) + "_flagged_";
  out_.line(fmt::format("const auto {} = {}.view();", flagged, name(b.flag)));
  chunk_offer_name_ = fmt::format("offer_{}_{}_", b.reduction->location.line, b.reduction->location.column);
  out_.line(fmt::format("const {} {} = {};", cpp_type(offer.target->type), chunk_offer_name_, reduction_value(offer)));
  chunk_offer_ = &offer;
  out_.open(fmt::format("for (rt::local {0} = begin_; {0} < end_; ++{0})", nbr));
  out_.line(fmt::format("if (!{}.moves({}, {})) continue;", view->second, nbr, reduction_value(offer)));
  out_.open(fmt::format("for (const rt::local {} : in_.neighbors({}))", v, nbr));
  out_.line(fmt::format("if (!{}.test({})) continue;", flagged, v));
  neighbours_[loop.symbol] = {"", false, vertex_loop.symbol};
  statement(*b.reduction);
  neighbours_.erase(loop.symbol);
  out_.line("break;  // every flagged in-neighbour offers the same");
  out_.close();
  out_.close();
  chunk_offer_ = nullptr;
  for (const Symbol* scalar : snapshots) renamed_.erase(scalar);
  for (const auto& made : views) reducers_.erase(made);
  --vertex_loops_;
  out_.close(");");
}

std::string FunctionGenerator::in_sums_name(const SplitPull& p) {
  return fmt::format("in_sums_{}_{}_", p.loop->location.line, p.loop->location.column);
}

void FunctionGenerator::declare_pulls() {
  if (naive()) return;
  for (const BottomUp& b : analysis_.bottom_up)
    out_.line(fmt::format("rt::Direction {}({});  // which way the loop at {}:{} runs each round", direction_name(b),
                          graph_, b.pulse->location.line, b.pulse->location.column));
  for (const SplitPull& p : analysis_.split_pulls)
    out_.line(fmt::format("rt::InSums<{}> {}({});  // the split pull of {}:{}", cpp_type(p.accumulator->type),
                          in_sums_name(p), graph_, p.loop->location.line, p.loop->location.column));
}

void FunctionGenerator::compute_split_pulls(const Stmt& pulse) {
  if (naive()) return;
  for (const SplitPull& p : analysis_.split_pulls) {
    if (p.pulse != &pulse) continue;
    const auto& loop = *p.loop->as<Forall>();
    const std::string v = name(named(*loop.of)), u = name(loop.symbol), type = cpp_type(p.accumulator->type);
    out_.line("// split pull: each rank sums its own in-edges of every node it holds, mirrors' sums added");
    out_.line("// into their masters (one bulk reduction)");
    out_.open(fmt::format("{}.compute([&](rt::local {}, [[maybe_unused]] unsigned member_)", in_sums_name(p), v));
    // As inside the loop, at one of the rank's masters: local memory.
    neighbours_[loop.symbol] = {"", true, named(*loop.of)};
    ++vertex_loops_;
    const bool outer_exclusive = exclusive_;
    exclusive_ = plain_reads_ = true;
    const std::string term = expr(*p.term);
    exclusive_ = outer_exclusive;
    plain_reads_ = false;
    --vertex_loops_;
    neighbours_.erase(loop.symbol);
    out_.line(fmt::format("{} sum_{{}};", type));
    out_.line(fmt::format("for (const rt::local {} : {}.in_neighbors({})) sum_ += {};", u, graph_, v, term));
    out_.line("return sum_;");
    out_.close(");");
  }
}

void FunctionGenerator::neighbour_loop(const Stmt& s, const Forall& f) {
  const Symbol* of = named(*f.of);
  const std::string v = name(of);
  if (const SplitPull* p = naive() ? nullptr : analysis_.find_split(s)) {
    const std::string sum = name(p->accumulator);
    out_.line(fmt::format("{} = {} + {}[{}];  // the split pull's sum", sum, sum, in_sums_name(*p), v));
    return;
  }
  const std::string nbr = name(f.symbol);
  const bool incoming = f.domain == DomainKind::InNeighbors;
  const std::string edge = fmt::format("edge_{}_", nbr);
  compute_hoisted_locals(s);
  std::vector<const Symbol*> snapshots;
  std::vector<std::pair<const Symbol*, std::string>> views;
  if (naive()) {
    out_.open(fmt::format("for ({}const rt::local {} : {}.{}({}))", maybe_unused(f.symbol), nbr, graph_,
                          incoming ? "in_neighbors" : "out_neighbors", v));
  } else {
    // What the loop works with, as locals of this node: the row as a span, the scalars it reads and
    // a view of each property it reduces, which the C++ compiler keeps in registers across the
    // loop (through references it reloads them after every update, which might alias them).
    snapshots = snapshot_scalars(s);
    views = reducer_views(s);
    const char* kind = incoming ? "in" : "out";
    const std::string row = fmt::format("row_{}_", nbr), first = fmt::format("first_{}_", nbr),
                      k = fmt::format("k_{}_", nbr);
    out_.line(fmt::format("const std::span<const rt::local> {} = {}.{}_neighbors({});", row, graph_, kind, v));
    out_.line(fmt::format("[[maybe_unused]] const rt::edge {} = {}.{}_begin({});", first, graph_, kind, v));
    out_.open(fmt::format("for (std::size_t {0} = 0; {0} < {1}.size(); ++{0})", k, row));
    out_.line(fmt::format("[[maybe_unused]] const rt::edge {} = {} + {};", edge, first, k));
    out_.line(fmt::format("{}const rt::local {} = {}[{}];", maybe_unused(f.symbol), nbr, row, k));
  }
  neighbours_[f.symbol] = {edge, incoming, of};
  if (of == bfs_variable_ && !incoming) out_.line(fmt::format("if (!{}.child({}, {})) continue;", bfs_, v, nbr));
  if (f.filter) out_.line(fmt::format("if (!{}) continue;", expr(*f.filter)));
  statements(f.body);
  neighbours_.erase(f.symbol);
  for (const Symbol* scalar : snapshots) renamed_.erase(scalar);
  for (const auto& view : views) reducers_.erase(view);
  out_.close();
}

std::vector<const Symbol*> FunctionGenerator::snapshot_scalars(const Stmt& loop) {
  // The function's scalars (declared outside every vertex loop) that the loop reads and never
  // updates: inside a vertex loop they change only at its end (a shared reduction goes through a
  // helper), so a copy taken at each node is theirs.
  std::set<const Symbol*> read, updated;
  for_each_statement(loop, [&](const Stmt& st) {
    for (const Access& a : own_accesses(st)) (a.update ? updated : read).insert(a.symbol);
  });
  std::vector<const Symbol*> taken;
  for (const Symbol* sym : read) {
    const TypeKind k = sym->type.kind;
    const bool scalar = k == TypeKind::Int || k == TypeKind::Long || k == TypeKind::Float || k == TypeKind::Double ||
                        k == TypeKind::Bool || k == TypeKind::Node;
    if (!scalar || sym->kind == SymbolKind::LoopVariable || sym->vertex_depth != 0 || updated.count(sym) ||
        renamed_.count(sym))
      continue;
    const std::string copy = fmt::format("{}_here_", name(sym));
    out_.line(fmt::format("const {} {} = {};", cpp_type(sym->type), copy, name(sym)));
    renamed_[sym] = copy;
    taken.push_back(sym);
  }
  return taken;
}

std::vector<std::pair<const Symbol*, std::string>> FunctionGenerator::reducer_views(const Stmt& loop) {
  std::vector<std::pair<const Symbol*, std::string>> made;
  for (const Stmt* st : reductions_in(loop)) {
    const Reduction& r = *st->as<Reduction>();
    const auto* p = r.target->as<PropertyRef>();
    const ReductionPlan* plan = reduction_plan(*st);
    if (!p || !plan || plan->queued || r.scope == ReductionTarget::Shared || r.scope == ReductionTarget::Private ||
        p->symbol->type.kind != TypeKind::NodeProperty || p->symbol->type.element == TypeKind::Bool)
      continue;
    const std::pair<const Symbol*, std::string> key{p->symbol, reduction_op(r.op)};
    if (reducers_.count(key)) continue;
    const std::string view = fmt::format("{}_by_{}_", name(p->symbol), made.size());
    out_.line(fmt::format("const auto {} = {}.reducer<{}>();", view, name(p->symbol), key.second));
    reducers_[key] = view;
    made.push_back(key);
  }
  return made;
}

void FunctionGenerator::fixed_point(const FixedPoint& fp) {
  const std::string finished = name(fp.symbol);
  std::string count;
  const auto* u = fp.condition->as<Unary>();
  const Symbol* flag = u && u->op == UnaryOp::Not ? named(*u->operand) : nullptr;
  if (!naive() && flag && flag->type.kind == TypeKind::NodeProperty && flag->type.element == TypeKind::Bool) {
    count = fmt::format("{}.count()", name(flag));
  } else {
    convergence_element_ = "node_";
    count = fmt::format("{}.count_nodes([&](rt::local node_) {{ return !{}; }})", graph_, expr(*fp.condition));
    convergence_element_.clear();
  }
  out_.line(fmt::format("// fixedPoint: until {} holds on every node", to_source(*fp.condition)));
  out_.open("while (true)");
  out_.line(fmt::format("{} = !{}.next_round({});", finished, graph_, count));
  out_.line(fmt::format("if ({}) break;", finished));
  statements(fp.body);
  out_.close();
}

void FunctionGenerator::iterate_in_bfs(const Stmt& s, const IterateInBFS& b) {
  const std::string bfs = fmt::format("bfs_{}_", s.location.line);
  const std::string depth = fmt::format("depth_{}_", s.location.line);
  out_.open("");
  out_.line(fmt::format("rt::BfsLevels {}({}, {});", bfs, graph_, expr(*b.root)));
  const std::string outer_bfs = bfs_;
  const Symbol* outer_variable = bfs_variable_;
  bfs_ = bfs;
  bfs_variable_ = b.symbol;
  auto level = [&](const Stmt& statement, const Block& body, PulseKind kind, const Expr* condition) {
    std::vector<const Stmt*> roots;
    if (kind == PulseKind::BfsLevel) {
      for (const Stmt& inner : body.statements) roots.push_back(&inner);
    } else {
      roots.push_back(&statement);
    }
    pulse(statement, roots, kind, [&] {
      owned_.push_back(b.symbol);
      ++vertex_loops_;
      out_.open(fmt::format("{}.for_level({}, {}", bfs, depth, lambda_head(b.symbol)));
      if (condition) {
        enter(statement);
        out_.line(fmt::format("if (!{}) return;", expr(*condition)));
      }
      statements(body);
      out_.close(");");
      --vertex_loops_;
      owned_.pop_back();
    });
  };
  out_.open(fmt::format("for (std::int64_t {0} = 0; {0} <= {1}.deepest(); ++{0})", depth, bfs));
  level(s, b.body, PulseKind::BfsLevel, nullptr);
  out_.close();
  if (b.reverse) {
    const auto& reverse = *b.reverse->as<IterateInReverse>();
    out_.directive(b.reverse->location);
    out_.open(fmt::format("for (std::int64_t {0} = {1}.deepest(); {0} >= 0; --{0})", depth, bfs));
    level(*b.reverse, reverse.body, PulseKind::ReverseLevel, reverse.condition.get());
    out_.close();
  }
  bfs_ = outer_bfs;
  bfs_variable_ = outer_variable;
  out_.close();
}

void FunctionGenerator::return_statement(const Return& r) {
  keep_scalars();
  out_.line(r.value ? fmt::format("return {};", expr(*r.value, f_.result)) : "return;");
}

void FunctionGenerator::call_statement(const CallStatement& c) {
  for (const Argument& a : c.call->as<MethodCall>()->arguments) {
    out_.line(fmt::format("{}.fill({});", name(a.property), expr(*a.value, a.property->type.element_type())));
  }
}

}  // namespace courier::dsl::codegen
