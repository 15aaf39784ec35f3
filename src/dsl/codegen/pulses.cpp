// A vertex loop (or a level of iterateInBFS / iterateInReverse) is a pulse (paper 004, Definition
// 3): before it, the properties it reads through mirrors are refreshed (naive: their one-sided
// gets begin, to end with it) and its reductions' helpers made; after it, its reductions are
// synchronised. An aggregated pulse (reduction-exclusive, in the optimised generation) reduces in
// place and ends in one bulk reduction per reduced property; any other pulse queues each reduction
// statement's updates (naive: accumulates them one-sided into their owners) and synchronises each
// statement on its own.
#include <fmt/format.h>

#include <algorithm>

#include "courier/dsl/walk.hpp"
#include "generator.hpp"

namespace courier::dsl::codegen {

namespace {

const Symbol* named(const Expr& e) {
  const auto* n = e.as<NameRef>();
  return n ? n->symbol : nullptr;
}

template <class T>
void add_unique(std::vector<T>& v, T x) {
  if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

}  // namespace

std::string FunctionGenerator::lambda_head(const Symbol* variable) const {
  return fmt::format("[&]({}rt::local {}, [[maybe_unused]] unsigned member_)", maybe_unused(variable), name(variable));
}

const ReductionPlan* FunctionGenerator::reduction_plan(const Stmt& s) const {
  if (!pulse_) return nullptr;
  for (const ReductionPlan& r : pulse_->reductions)
    if (r.statement == &s) return &r;
  return nullptr;
}

PulsePlan FunctionGenerator::plan_pulse(const Stmt& s, const std::vector<const Stmt*>& roots, PulseKind kind) {
  PulsePlan plan;
  const auto found = std::find_if(analysis_.pulses.begin(), analysis_.pulses.end(),
                                  [&](const Pulse& p) { return p.statement == &s && p.kind == kind; });
  plan.aggregated = !naive() && found != analysis_.pulses.end() && found->aggregated;
  std::vector<std::string> helpers;
  auto unique_name = [&](std::string base, const Stmt& at) {
    std::string n = fmt::format("{}_{}_", base, at.location.line);
    if (std::find(helpers.begin(), helpers.end(), n) != helpers.end())
      n = fmt::format("{}_{}_{}_", base, at.location.line, at.location.column);
    helpers.push_back(n);
    return n;
  };
  for (const Stmt* root : roots) {
    for_each_statement(*root, [&](const Stmt& inner) {
      std::vector<const Expr*> written;
      if (const auto* r = inner.as<Reduction>(); r && r->scope != ReductionTarget::Private) {
        ReductionPlan rp;
        rp.statement = &inner;
        rp.op = reduction_op(r->op);
        if (r->scope == ReductionTarget::Shared) {
          rp.helper = unique_name("partial_" + name(named(*r->target)), inner);
        } else {
          rp.queued = !plan.aggregated;
          if (rp.queued) rp.helper = unique_name(naive() ? "accumulation" : "queue", inner);
        }
        if (!r->also.empty()) rp.also = unique_name("also", inner);
        plan.reductions.push_back(rp);
      }
      if (const auto* r = inner.as<Reduction>()) {
        written.push_back(r->target.get());
        for (const Assignment& a : r->also) written.push_back(a.target.get());
      }
      if (const auto* a = inner.as<Assignment>()) {
        written.push_back(a->target.get());
        const auto* p = a->target->as<PropertyRef>();
        if (p && p->element->type.kind == TypeKind::Node) add_unique(plan.assigned, p->symbol);
      }
      for_each_own_expression(inner, [&](const Expr& top) {
        unhoisted_subexpressions(top, [&](const Expr& e) {
          const auto* p = e.as<PropertyRef>();
          if (!p || p->symbol->type.kind != TypeKind::NodeProperty) return;
          if (std::find(written.begin(), written.end(), &e) != written.end()) return;
          if (!local_node(named(*p->element))) add_unique(plan.refreshed, p->symbol);
        });
      });
    });
  }
  return plan;
}

void FunctionGenerator::begin_pulse(const PulsePlan& plan) {
  for (const Symbol* p : plan.refreshed) {
    if (naive()) {
      out_.line(fmt::format("{}.begin_gets();  // read one-sided: a get from the owner per access", name(p)));
      continue;
    }
    const CacheSafety* safety = analysis_.find_property(*p);
    const bool cached = safety && safety->safe;
    out_.line(fmt::format("{}.refresh(rt::Fetch::{});  // read through mirrors{}", name(p), cached ? "changed" : "all",
                          cached ? " (cache-safe: only what changed)" : ""));
  }
  std::vector<std::string> prepared;
  for (const ReductionPlan& rp : plan.reductions) {
    const auto& r = *rp.statement->as<Reduction>();
    if (!rp.also.empty()) {
      out_.open(fmt::format("const auto {} = [&](rt::local n_)", rp.also));
      for (const Assignment& a : r.also) {
        for_each_subexpression(*a.value, [&](const Expr& e) {
          const Symbol* n = named(e);
          if (e.as<PropertyRef>() || (n && n->vertex_depth > 0) || (n && n->kind == SymbolKind::LoopVariable)) {
            unsupported(a.value->location,
                        "expected a value the same for every node in a multi-assignment (a literal or a variable "
                        "declared outside vertex loops): it is set where the reduction lowered the node, on its rank");
          }
        });
        const auto& target = *a.target->as<PropertyRef>();
        out_.line(fmt::format("{}.{}(n_, {});", name(target.symbol),
                              naive()      ? "put"
                              : bottom_up_ ? "store_exclusive"
                                           : "store",
                              expr(*a.value, target.symbol->type.element_type())));
      }
      out_.close(";");
    }
    if (r.scope == ReductionTarget::Shared) {
      out_.line(fmt::format("rt::Partial<{}, {}> {}({});", cpp_type(r.target->type), rp.op, rp.helper, graph_));
      continue;
    }
    const Symbol* property = r.target->as<PropertyRef>()->symbol;
    if (rp.queued && naive()) {
      out_.line(fmt::format("rt::Accumulation<{}, {}> {}({}, \"{}.{}\");  // an accumulate per update, into its owner",
                            cpp_type(property->type.element), rp.op, rp.helper, graph_, f_.name, rp.helper));
    } else if (rp.queued) {
      out_.line(fmt::format("rt::ReductionQueue<{}> {}({});", cpp_type(property->type.element), rp.helper, graph_));
    } else if (const std::string key = name(property) + rp.op;
               std::find(prepared.begin(), prepared.end(), key) == prepared.end()) {
      prepared.push_back(key);
      out_.line(fmt::format("{}.prepare_reduce<{}>();", name(property), rp.op));
    }
  }
}

void FunctionGenerator::end_pulse(const PulsePlan& plan) {
  // The gets end before any reduction writes the masters they read.
  if (naive())
    for (const Symbol* p : plan.refreshed) out_.line(fmt::format("{}.end_gets();", name(p)));
  std::vector<std::string> finished;
  for (const ReductionPlan& rp : plan.reductions) {
    const auto& r = *rp.statement->as<Reduction>();
    if (r.scope == ReductionTarget::Shared) {
      const std::string target = name(named(*r.target));
      out_.line(fmt::format("{} = {}.finish({});", target, rp.helper, target));
      continue;
    }
    const std::string property = name(r.target->as<PropertyRef>()->symbol);
    const std::string also = rp.also.empty() ? "" : rp.also;
    if (rp.queued) {
      out_.line(fmt::format("{}.finish<{}>({}{});  // the statement's {}, on its own", rp.helper, rp.op, property,
                            also.empty() ? "" : ", " + also, naive() ? "accumulates" : "queue"));
    } else if (const std::string key = property + rp.op;
               std::find(finished.begin(), finished.end(), key) == finished.end()) {
      finished.push_back(key);
      out_.line(fmt::format("{}.finish_reduce<{}>({});  // one bulk reduction", property, rp.op, also));
    }
  }
  for (const Symbol* p : plan.assigned) out_.line(fmt::format("{}.wrote();", name(p)));
}

void FunctionGenerator::pulse(const Stmt& s, const std::vector<const Stmt*>& roots, PulseKind kind,
                              const std::function<void()>& loop) {
  const PulsePlan plan = plan_pulse(s, roots, kind);
  const bool any = !plan.reductions.empty();
  out_.line(fmt::format("// pulse: {}", !any              ? "nothing to reduce"
                                        : plan.aggregated ? "aggregated (reduction-exclusive)"
                                                          : "reductions queued per statement"));
  begin_pulse(plan);
  const PulsePlan* outer = pulse_;
  pulse_ = &plan;
  loop();
  pulse_ = outer;
  end_pulse(plan);
}

}  // namespace courier::dsl::codegen
