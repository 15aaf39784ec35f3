// What the generator learns about a function before writing it: C++ names, how often each symbol
// is used, which properties some loop reads through mirrors (tracked: their changed masters are
// marked so a refresh sends only them), and which graph facts need preparing.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>

#include "courier/dsl/compile_error.hpp"
#include "courier/dsl/walk.hpp"
#include "generator.hpp"

namespace courier::dsl::codegen {

namespace {

bool is_keyword(const std::string& word) {
  static const std::array<std::string_view, 58> keywords{
      "alignas",  "alignof",  "and",    "asm",      "auto",    "bitand",   "bitor",     "break",    "case",
      "catch",    "char",     "class",  "compl",    "concept", "const",    "constexpr", "continue", "default",
      "delete",   "do",       "double", "else",     "enum",    "explicit", "export",    "extern",   "float",
      "for",      "friend",   "goto",   "if",       "inline",  "int",      "long",      "mutable",  "namespace",
      "new",      "noexcept", "not",    "operator", "or",      "private",  "protected", "public",   "register",
      "requires", "return",   "short",  "signed",   "sizeof",  "static",   "struct",    "switch",   "template",
      "this",     "typedef",  "union",  "void"};
  static const std::array<std::string_view, 10> more{"virtual", "volatile", "while", "xor",   "rt",
                                                     "std",     "courier",  "try",   "throw", "using"};
  return std::find(keywords.begin(), keywords.end(), word) != keywords.end() ||
         std::find(more.begin(), more.end(), word) != more.end();
}

// The symbol an expression names, if it is a bare name.
const Symbol* named(const Expr& e) {
  const auto* n = e.as<NameRef>();
  return n ? n->symbol : nullptr;
}

// Whether `s` is a neighbour loop's variable over `of`'s out-edges (or in-edges).
bool neighbour_of(const Symbol* s, const Symbol* of, DomainKind domain) {
  const auto* loop = s && s->kind == SymbolKind::LoopVariable && s->binder ? s->binder->as<Forall>() : nullptr;
  return loop && loop->domain == domain && loop->of && named(*loop->of) == of;
}

// g.get_edge(v, nbr) over v's out-edges or g.get_edge(u, v) over v's in-edges: the edge in hand,
// which a CSR-order loop reads by its index, naming neither node.
bool edge_in_hand(const Expr& e) {
  const auto* c = e.as<MethodCall>();
  if (!c || c->resolved != GraphMethod::GetEdge) return false;
  const Symbol* a = named(*c->arguments[0].value);
  const Symbol* b = named(*c->arguments[1].value);
  return neighbour_of(b, a, DomainKind::OutNeighbors) || neighbour_of(a, b, DomainKind::InNeighbors);
}

}  // namespace

FunctionGenerator::FunctionGenerator(const Function& f, const FunctionAnalysis& analysis, const CodegenOptions& options,
                                     Writer& out)
    : f_(f), analysis_(analysis), options_(options), out_(out) {
  learn();
}

bool FunctionGenerator::owned(const Symbol* s) const {
  if (!s || s->kind != SymbolKind::LoopVariable || !s->binder) return false;
  if (s->binder->as<IterateInBFS>()) return true;
  const auto* f = s->binder->as<Forall>();
  return f && (f->domain == DomainKind::Nodes || (f->domain == DomainKind::Set && f->parallel));
}

void FunctionGenerator::learn() {
  learn_hoisted();
  if (!naive())
    for (const SplitPull& p : analysis_.split_pulls) split_neighbours_.insert(p.loop->as<Forall>()->symbol);
  for (const auto& symbol : f_.symbols) {
    names_[symbol.get()] = is_keyword(symbol->name) ? "sp_" + symbol->name : symbol->name;
    if (symbol->type.kind == TypeKind::Graph) graph_ = names_[symbol.get()];
  }
  if (graph_.empty()) unsupported(f_.location, "expected a Graph parameter for code generation, found none");

  // Uses, and reads of node properties through a node the loop's rank may not own.
  std::multimap<const Symbol*, const Symbol*> copies;  // target <- source
  for_each_statement(f_.body, [&](const Stmt& s) {
    if (const auto* fp = s.as<FixedPoint>()) ++uses_[fp->symbol];
    if (const auto* a = s.as<Assignment>(); a && a->property_copy) copies.emplace(named(*a->target), named(*a->value));
    // Targets of assignments and reductions are written, not read.
    std::set<const Expr*> written;
    if (const auto* a = s.as<Assignment>()) {
      written.insert(a->target.get());
      const auto* p = a->target->as<PropertyRef>();
      if (p && p->element->type.kind == TypeKind::Edge) set_per_edge_.emplace(p->symbol, s.location);
    }
    if (const auto* r = s.as<Reduction>()) {
      if (narrowed(*r)) narrows_ = true;
      written.insert(r->target.get());
      for (const Assignment& also : r->also) written.insert(also.target.get());
    }
    for_each_own_expression(s, [&](const Expr& top) {
      // The optimised generation's edge in hand names neither node (its loop variable may go unused).
      std::set<const Expr*> unnamed;
      if (!naive())
        for_each_subexpression(top, [&](const Expr& e) {
          if (edge_in_hand(e))
            for (const Argument& a : e.as<MethodCall>()->arguments) unnamed.insert(a.value.get());
        });
      for_each_subexpression(top, [&](const Expr& e) {
        if (const Symbol* n = named(e); n && !unnamed.count(&e)) ++uses_[n];
        if (const auto* p = e.as<PropertyRef>()) ++uses_[p->symbol];
      });
      // What a per-neighbour hoist computes is read at masters.
      unhoisted_subexpressions(top, [&](const Expr& e) {
        const auto* p = e.as<PropertyRef>();
        if (!p) return;
        const Symbol* element = named(*p->element);
        if (s.per_vertex && !written.count(&e) && p->symbol->type.kind == TypeKind::NodeProperty &&
            !local_node(element))
          tracked_.insert(p->symbol);
      });
      for_each_subexpression(top, [&](const Expr& e) {
        const auto* c = e.as<MethodCall>();
        if (!c) return;
        if (c->resolved == GraphMethod::CountOutNbrs) out_degrees_ = true;
        if (c->resolved == GraphMethod::CountInNbrs) in_degrees_ = true;
        if (c->resolved == GraphMethod::IsAnEdge) adjacency_ = true;
      });
    });
    if (const auto* fa = s.as<Forall>(); fa && fa->of) ++uses_[named(*fa->of)];
  });
  // A tracked property copied from another: the source's changed masters are the copy's.
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [target, source] : copies) {
      if (tracked_.count(target) && source && tracked_.insert(source).second) grew = true;
    }
  }
}

std::string FunctionGenerator::name(const Symbol* s) const {
  if (const auto renamed = renamed_.find(s); renamed != renamed_.end()) return renamed->second;
  const auto found = names_.find(s);
  return found == names_.end() ? s->name : found->second;
}

std::string FunctionGenerator::maybe_unused(const Symbol* s) const {
  const auto found = uses_.find(s);
  return found == uses_.end() || found->second == 0 ? "[[maybe_unused]] " : "";
}

std::string FunctionGenerator::cpp_type(TypeKind kind) const {
  switch (kind) {
    case TypeKind::Int:
      return "std::int32_t";
    case TypeKind::Long:
    case TypeKind::Infinity:
      return "std::int64_t";
    case TypeKind::Float:
      return "float";
    case TypeKind::Double:
      return "double";
    case TypeKind::Bool:
      return "bool";
    case TypeKind::Node:
      return "rt::node";
    case TypeKind::Edge:
      return "rt::edge";
    case TypeKind::Graph:
      return "rt::Graph";
    default:
      return "void";
  }
}

std::string FunctionGenerator::cpp_type(const Type& type) const {
  switch (type.kind) {
    case TypeKind::NodeProperty:
      return type.element == TypeKind::Bool ? "rt::NodeFlags"
                                            : fmt::format("rt::NodeProperty<{}>", cpp_type(type.element));
    case TypeKind::EdgeProperty:
      return fmt::format("rt::EdgeProperty<{}>", cpp_type(type.element));
    case TypeKind::NodeSet:
      return "rt::NodeSet";
    default:
      return cpp_type(type.kind);
  }
}

void FunctionGenerator::unsupported(Location where, const std::string& what) const {
  throw CompileError(options_.line_file, where, what);
}

}  // namespace courier::dsl::codegen
