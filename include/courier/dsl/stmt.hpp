#pragma once
// Statements of the AST. A Stmt is a location, whether it runs per vertex (set by the checker), and
// one of the alternatives below; children are owned.
//
// Collective and per-vertex statements: the top of a function, and the bodies of if/while/do/
// fixedPoint and of a `for` over a SetN outside any vertex loop, run on every rank alike
// (collective). The bodies and filters of a forall (over g.nodes(), a SetN or neighbours), of a
// `for` over g.nodes()/g.neighbors(v)/g.nodes_to(v), and of iterateInBFS/iterateInReverse run once
// per vertex (per_vertex), each rank for the vertices it owns.
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "courier/dsl/expr.hpp"

namespace courier::dsl {

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;

struct Block {
  std::vector<Stmt> statements;
};

// `T name;` or `T name = init;` (init may be null).
struct Declaration {
  Type type;
  std::string name;
  Location name_location;
  ExprPtr init;
  const Symbol* symbol = nullptr;  // set by the checker
};

// target = value. target is a NameRef or a PropertyRef; a NameRef of a property assigned a
// property of the same type (`rank = next;`) copies the whole property (property_copy).
struct Assignment {
  ExprPtr target;
  ExprPtr value;
  bool property_copy = false;  // set by the checker
};

enum class ReductionOp : std::uint8_t { Add, Subtract, Multiply, And, Or, Min, Max };

// How the reduction was written.
enum class ReductionForm : std::uint8_t {
  Compound,  // x += e   x -= e   x *= e   x &&= e   x ||= e
  Step,      // x++  x--   (value is the literal 1)
  Call,      // x = Min(x, e)
  Tuple,     // <x, y, ...> = <Min(x, e), a, ...>: y = a, ... take effect where Min lowers x
};

// What a reduction updates (set by the checker).
enum class ReductionTarget : std::uint8_t {
  Unchecked,
  Property,  // v.p or e.p: a reduction across ranks
  Shared,    // a scalar declared outside the vertex loops it runs in: reduced over all of them
  Private,   // a scalar of this vertex's own iteration, or any scalar outside vertex loops: a plain update
};

// A reduction statement: target op= value. For Min/Max, value is the second argument (the first is
// the target itself). For the Tuple form, `also` holds the assignments that come with the update.
struct Reduction {
  ReductionOp op = ReductionOp::Add;
  ReductionForm form = ReductionForm::Compound;
  ExprPtr target;
  ExprPtr value;
  std::vector<Assignment> also;
  ReductionTarget scope = ReductionTarget::Unchecked;
};

struct If {
  ExprPtr condition;
  StmtPtr then_branch;
  StmtPtr else_branch;  // may be null
};

struct While {
  ExprPtr condition;
  Block body;
};

struct DoWhile {
  Block body;
  ExprPtr condition;
};

// What a forall / for iterates (set by the checker).
enum class DomainKind : std::uint8_t {
  Unchecked,
  Nodes,         // g.nodes()
  OutNeighbors,  // g.neighbors(v)
  InNeighbors,   // g.nodes_to(v)
  Set,           // a SetN
};

// `forall (v in SOURCE.filter(FILTER)) { ... }` (parallel) and `for (v in SOURCE) { ... }` (in order).
// The checker rewrites a bare property name in the filter to a property of the loop variable:
// `.filter(modified == True)` becomes `v.modified == True`.
struct Forall {
  bool parallel = true;
  std::string variable;
  Location variable_location;
  ExprPtr source;  // g.nodes(), g.neighbors(v), g.nodes_to(v) or a SetN name
  ExprPtr filter;  // may be null
  Block body;
  // Set by the checker:
  DomainKind domain = DomainKind::Unchecked;
  const Expr* of = nullptr;  // the v of g.neighbors(v) / g.nodes_to(v)
  const Symbol* symbol = nullptr;
};

// `fixedPoint until (variable : condition) { body }`: runs the body while the condition does not
// hold for every node; a bare property name in the condition stands for each node's value.
// `variable`, a bool, is true once the fixed point is reached.
struct FixedPoint {
  std::string variable;
  Location variable_location;
  ExprPtr condition;
  Block body;
  const Symbol* symbol = nullptr;  // set by the checker
};

// iterateInReverse [(condition)] { body }: the nodes of the BFS again, level by level from the
// deepest back to the root's, those satisfying the condition.
struct IterateInReverse {
  ExprPtr condition;  // may be null
  Block body;
};

// iterateInBFS (variable in SOURCE from root) { body } [iterateInReverse ...]: the body runs for the
// nodes of each BFS level from root in turn. Inside either body, g.neighbors(variable) visits the
// BFS children of the node only (w one level deeper), as StarPlat defines it.
struct IterateInBFS {
  std::string variable;
  Location variable_location;
  ExprPtr source;  // g.nodes()
  ExprPtr root;
  Block body;
  StmtPtr reverse;                 // a Stmt holding an IterateInReverse, or null
  const Symbol* symbol = nullptr;  // set by the checker
};

struct Return {
  ExprPtr value;  // may be null
};

// A method call for its effect: g.attachNodeProperty(...).
struct CallStatement {
  ExprPtr call;
};

struct Stmt {
  Location location;
  bool per_vertex = false;  // set by the checker: runs once per vertex of a vertex loop
  std::variant<Block, Declaration, Assignment, Reduction, If, While, DoWhile, Forall, FixedPoint, IterateInBFS,
               IterateInReverse, Return, CallStatement>
      node;

  template <class T>
  T* as() {
    return std::get_if<T>(&node);
  }
  template <class T>
  const T* as() const {
    return std::get_if<T>(&node);
  }
};

template <class T>
Stmt make_stmt(Location location, T node) {
  Stmt s;
  s.location = location;
  s.node = std::move(node);
  return s;
}

std::string_view spelling(ReductionOp op);  // "+=", "-=", "*=", "&&=", "||=", "Min", "Max"

}  // namespace courier::dsl
