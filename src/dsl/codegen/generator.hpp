#pragma once
// The generator of one function. It first learns what the code needs (facts.cpp: names, which
// properties are read through mirrors, which edges are visited), then writes the signature and
// statements (statements.cpp), each vertex loop as a pulse (pulses.cpp), and expressions
// (expressions.cpp). Generated code runs on every rank: collective statements as they are, the
// bodies of vertex loops once per master of the rank, in the team's threads.
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "courier/dsl/analysis.hpp"
#include "courier/dsl/codegen.hpp"
#include "writer.hpp"

namespace courier::dsl::codegen {

// A neighbour loop's variable: a local id reached over the edge `edge` of `of`'s row.
struct Neighbour {
  std::string edge;  // the edge index's name (the optimised generation's CSR-order loop)
  bool incoming = false;
  const Symbol* of = nullptr;
};

// A reduction statement of the pulse being written, and the helpers it goes through.
struct ReductionPlan {
  const Stmt* statement = nullptr;
  std::string op;      // rt::Min, rt::Sum, ...
  std::string helper;  // a Partial (shared scalar) or a ReductionQueue (queued property reduction)
  std::string also;    // the multi-assignment's lambda, or empty
  bool queued = false;
};

struct PulsePlan {
  bool aggregated = false;
  std::vector<ReductionPlan> reductions;
  std::vector<const Symbol*> refreshed;  // properties read through mirrors
  std::vector<const Symbol*> assigned;   // properties assigned at masters
};

class FunctionGenerator {
 public:
  FunctionGenerator(const Function& f, const FunctionAnalysis& analysis, const CodegenOptions& options, Writer& out);

  // The function's signature, as the header declares it (without the ';').
  std::string signature() const;
  void generate();

 private:
  bool naive() const { return options_.generation == rt::Generation::naive; }

  // ---- facts.cpp
  void learn();
  std::string name(const Symbol* s) const;
  bool owned(const Symbol* s) const;  // the variable of a vertex loop: one of this rank's masters
  // A node whose properties the rank reads from local memory: owned, or a split pull's neighbour.
  bool local_node(const Symbol* s) const { return owned(s) || split_neighbours_.count(s) != 0; }
  bool tracked(const Symbol* property) const { return tracked_.count(property) != 0; }
  std::string cpp_type(TypeKind kind) const;
  std::string cpp_type(const Type& type) const;
  std::string maybe_unused(const Symbol* s) const;

  // ---- statements.cpp
  void statements(const Block& b);
  void statement(const Stmt& s);
  void declaration(const Stmt& s, const Declaration& d);
  void assignment(const Stmt& s, const Assignment& a);
  void reduction(const Stmt& s, const Reduction& r);
  void forall(const Stmt& s, const Forall& f);
  void neighbour_loop(const Stmt& s, const Forall& f);
  void fixed_point(const FixedPoint& f);
  void iterate_in_bfs(const Stmt& s, const IterateInBFS& b);
  void return_statement(const Return& r);
  void call_statement(const CallStatement& c);
  void keep_scalars();
  // Before a neighbour loop of the optimised generation: the scalars it reads copied into locals
  // (renamed_ names them while the loop is written), and a Reducer view of each property it reduces
  // in place (reducers_). Each returns what it added, for the loop's end to take away.
  std::vector<const Symbol*> snapshot_scalars(const Stmt& loop);
  std::vector<std::pair<const Symbol*, std::string>> reducer_views(const Stmt& loop);
  void branch(const Stmt& s);
  bool contains_pulse(const Block& b) const;

  // ---- pulses.cpp
  // Refreshes, helpers, the loop (written by `loop`), then the synchronisations.
  void pulse(const Stmt& s, const std::vector<const Stmt*>& roots, PulseKind kind, const std::function<void()>& loop);
  PulsePlan plan_pulse(const Stmt& s, const std::vector<const Stmt*>& roots, PulseKind kind);
  void begin_pulse(const PulsePlan& plan);
  void end_pulse(const PulsePlan& plan);
  std::string lambda_head(const Symbol* variable) const;
  const ReductionPlan* reduction_plan(const Stmt& s) const;

  // ---- hoisting.cpp
  // The hoisted expressions' names: compiler-added properties (per neighbour), locals (per vertex).
  void learn_hoisted();
  // `top` and its subexpressions, leaving out what a per-neighbour hoist computes before the pulse.
  void unhoisted_subexpressions(const Expr& top, const std::function<void(const Expr&)>& visit) const;
  void declare_hoisted();                         // the added properties, where the function starts
  void compute_hoisted(const Stmt& pulse);        // before the pulse: once per node, then mirrors refreshed
  // Inside an earlier vertex loop's body, at its node: the hoists it computes for a later pulse.
  void compute_carried_hoists(const Stmt& loop, const Symbol* variable);
  // `NAME.store(master, value);` of a per-neighbour hoist.
  std::string hoisted_store(const Hoisted& h, const std::string& master);
  void compute_hoisted_locals(const Stmt& loop);  // before the neighbour loop
  bool in_split_pull(const Hoisted& h) const { return !naive() && analysis_.find_split(*h.loop) != nullptr; }

  // ---- split pulls (statements.cpp): the sums before their vertex loop, then each loop's place
  void declare_pulls();  // where the function starts: the split pulls' sums, the bottom-up steps' directions
  void compute_split_pulls(const Stmt& pulse);
  static std::string in_sums_name(const SplitPull& p);
  // ---- bottom-up steps (statements.cpp): the pull a round may run in place of the push
  void pull_loop(const BottomUp& b);
  static std::string direction_name(const BottomUp& b);

  // ---- expressions.cpp
  std::string expr(const Expr& e, const Type& expected = {}) const;
  std::string literal_inf(const Type& expected) const;
  std::string node_read(const Symbol* property, const Expr& element) const;
  std::string local_of(const Expr& node) const;
  std::string edge_of(const Expr& e, bool* incoming) const;
  std::string method(const MethodCall& c) const;
  std::string reduction_op(ReductionOp op) const;
  std::string reduction_value(const Reduction& r) const;
  // A reduction into a node's or a shared int whose value does int arithmetic: computed in 64 bits
  // and narrowed by Graph::narrow, which fails the run where the value does not fit.
  bool narrowed(const Reduction& r) const;
  bool bypass() const { return !naive() && exclusive_; }
  // Statement `s`'s own expressions may read local memory directly (reduction-exclusive).
  void enter(const Stmt& s);

  [[noreturn]] void unsupported(Location where, const std::string& what) const;

  const Function& f_;
  const FunctionAnalysis& analysis_;
  const CodegenOptions& options_;
  Writer& out_;
  std::string graph_;  // the Graph parameter's name

  // Facts about the whole function.
  std::map<const Symbol*, std::string> names_;
  std::map<const Symbol*, int> uses_;
  std::set<const Symbol*> tracked_;  // properties read through mirrors somewhere
  std::set<const Symbol*> split_neighbours_;  // the neighbours of split pulls (masters of the rank)
  std::map<const Symbol*, Location> set_per_edge_;  // edge properties assigned edge by edge: where first
  bool out_degrees_ = false, in_degrees_ = false, adjacency_ = false;
  std::vector<const Symbol*> kept_;  // top-level scalars declared so far
  std::map<const Expr*, std::string> hoisted_;    // optimised generation: the name computed in its place
  std::map<const Symbol*, std::string> renamed_;  // a hoisted expression's node, or a scalar's copy in a loop
  std::map<std::pair<const Symbol*, std::string>, std::string> reducers_;  // (property, op): its view's name
  const Expr* computing_ = nullptr;               // the hoisted expression being computed (not replaced)
  bool narrows_ = false;                          // some reduction is narrowed: check before returning
  mutable bool widen_ = false;                    // writing a narrowed value: int arithmetic in 64 bits

  // Where the writing is.
  int vertex_loops_ = 0;              // > 0: inside a vertex loop's body
  std::vector<const Symbol*> owned_;  // vertex loop variables in scope
  std::map<const Symbol*, Neighbour> neighbours_;
  std::map<const Symbol*, bool> edges_;  // edge variables: incoming?
  std::string bfs_;                      // the BfsLevels whose children g.neighbors(v) visits
  const Symbol* bfs_variable_ = nullptr;
  std::string convergence_element_;  // fixedPoint's condition: bare properties are this node's
  bool exclusive_ = false;
  // Inside a split pull's sum: nothing writes a property while the rank sums its in-edges, so its
  // reads are plain loads (an atomic one kept the compiler from holding the array in a register).
  bool plain_reads_ = false;
  // Inside a bottom-up pulse: a node's reduction and its multi-assignment are written by the one
  // thread that pulls it (for_pulled hands out whole 64-bit words), so without atomics.
  bool bottom_up_ = false;
  // A bottom-up pulse's offer, the same for every node (find_bottom_up), is computed once a chunk:
  // the reduction it belongs to, and the local that holds it.
  const Reduction* chunk_offer_ = nullptr;
  std::string chunk_offer_name_;
  const PulsePlan* pulse_ = nullptr;
};

}  // namespace courier::dsl::codegen
