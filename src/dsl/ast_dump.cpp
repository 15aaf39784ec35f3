#include "courier/dsl/ast_dump.hpp"

#include <fmt/format.h>

namespace courier::dsl {

namespace {

std::string text(const Expr& e) { return to_source(e, Parentheses::Full); }

std::string_view domain_name(DomainKind kind) {
  switch (kind) {
    case DomainKind::Unchecked:
      return "";
    case DomainKind::Nodes:
      return "nodes";
    case DomainKind::OutNeighbors:
      return "out-neighbours";
    case DomainKind::InNeighbors:
      return "in-neighbours";
    case DomainKind::Set:
      return "set";
  }
  return "";
}

std::string_view scope_name(ReductionTarget scope) {
  switch (scope) {
    case ReductionTarget::Unchecked:
      return "";
    case ReductionTarget::Property:
      return "property";
    case ReductionTarget::Shared:
      return "shared";
    case ReductionTarget::Private:
      return "private";
  }
  return "";
}

class Dumper {
 public:
  std::string run(const Program& program) {
    for (const Function& f : program.functions) function(f);
    return std::move(out_);
  }

 private:
  void line(int depth, const std::string& what, Location at) {
    fmt::format_to(std::back_inserter(out_), "{:{}}{}  @{}:{}\n", "", 2 * depth, what, at.line, at.column);
  }

  void function(const Function& f) {
    std::string head = fmt::format("Function {}(", f.name);
    for (std::size_t i = 0; i < f.parameters.size(); ++i) {
      if (i > 0) head += ", ";
      head += to_string(f.parameters[i].type) + " " + f.parameters[i].name;
    }
    head += ")";
    if (f.result.kind != TypeKind::Void) head += " -> " + to_string(f.result);
    line(0, head, f.location);
    block(f.body, 1);
  }

  void block(const Block& b, int depth) {
    for (const Stmt& s : b.statements) statement(s, depth);
  }

  void statement(const Stmt& s, int depth) {
    std::visit([&](const auto& node) { visit(node, s, depth); }, s.node);
  }

  void visit(const Block& n, const Stmt& s, int depth) {
    line(depth, "Block", s.location);
    block(n, depth + 1);
  }
  void visit(const Declaration& n, const Stmt& s, int depth) {
    std::string what = fmt::format("Declaration {} {}", to_string(n.type), n.name);
    if (n.init) what += " = " + text(*n.init);
    line(depth, what, s.location);
  }
  void visit(const Assignment& n, const Stmt& s, int depth) {
    line(depth,
         fmt::format("{} {} = {}", n.property_copy ? "PropertyCopy" : "Assignment", text(*n.target), text(*n.value)),
         s.location);
  }
  void visit(const Reduction& n, const Stmt& s, int depth) {
    std::string what = fmt::format("Reduction {} {} {}", text(*n.target), spelling(n.op), text(*n.value));
    for (const Assignment& a : n.also) what += fmt::format(", then {} = {}", text(*a.target), text(*a.value));
    if (n.scope != ReductionTarget::Unchecked) what += fmt::format(" [{}]", scope_name(n.scope));
    line(depth, what, s.location);
  }
  void visit(const If& n, const Stmt& s, int depth) {
    line(depth, "If " + text(*n.condition), s.location);
    branch(*n.then_branch, depth + 1);
    if (n.else_branch) {
      line(depth, "Else", n.else_branch->location);
      branch(*n.else_branch, depth + 1);
    }
  }
  // A branch's block is shown as its statements.
  void branch(const Stmt& s, int depth) {
    if (const auto* b = s.as<Block>()) {
      block(*b, depth);
    } else {
      statement(s, depth);
    }
  }
  void visit(const While& n, const Stmt& s, int depth) {
    line(depth, "While " + text(*n.condition), s.location);
    block(n.body, depth + 1);
  }
  void visit(const DoWhile& n, const Stmt& s, int depth) {
    line(depth, "DoWhile " + text(*n.condition), s.location);
    block(n.body, depth + 1);
  }
  void visit(const Forall& n, const Stmt& s, int depth) {
    std::string what = fmt::format("{} {} in {}", n.parallel ? "Forall" : "For", n.variable, text(*n.source));
    if (n.filter) what += " filter " + text(*n.filter);
    if (n.domain != DomainKind::Unchecked) what += fmt::format(" [{}]", domain_name(n.domain));
    line(depth, what, s.location);
    block(n.body, depth + 1);
  }
  void visit(const FixedPoint& n, const Stmt& s, int depth) {
    line(depth, fmt::format("FixedPoint {} until {}", n.variable, text(*n.condition)), s.location);
    block(n.body, depth + 1);
  }
  void visit(const IterateInBFS& n, const Stmt& s, int depth) {
    line(depth, fmt::format("IterateInBFS {} in {} from {}", n.variable, text(*n.source), text(*n.root)), s.location);
    block(n.body, depth + 1);
    if (n.reverse) statement(*n.reverse, depth);
  }
  void visit(const IterateInReverse& n, const Stmt& s, int depth) {
    line(depth, n.condition ? "IterateInReverse " + text(*n.condition) : std::string("IterateInReverse"), s.location);
    block(n.body, depth + 1);
  }
  void visit(const Return& n, const Stmt& s, int depth) {
    line(depth, n.value ? "Return " + text(*n.value) : std::string("Return"), s.location);
  }
  void visit(const CallStatement& n, const Stmt& s, int depth) { line(depth, "Call " + text(*n.call), s.location); }

  std::string out_;
};

}  // namespace

std::string dump_ast(const Program& program) { return Dumper().run(program); }

}  // namespace courier::dsl
