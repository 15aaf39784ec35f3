#pragma once
// The analyses of paper 004 (StarDist), section IV, on a checked program. They tell code generation
// where it may defer, bypass and cache communication.
//
// A *reduction statement* here is a Reduction whose target crosses ranks: a property element
// (ReductionTarget::Property) or a scalar shared by a vertex loop's iterations (Shared). A reduction
// on a private scalar is a plain update.
//
// Definition 1: a statement S is reduction-exclusive when traversing it reaches exactly one
// reduction statement R, and what R reduces (E: its target's property or variable, and the
// properties its multi-assignment also sets) is neither read nor updated anywhere in S outside R.
// The analysis works on names, not elements: any access of a property in E counts, whichever
// vertex's. Lemma 1: every statement inside a reduction-exclusive statement is reduction-exclusive;
// such statements are listed with the outermost statement that satisfies Definition 1.
//
// Definition 2: a property is opportunistic-cache-safe when no reduction-exclusive statement
// updates it (by assignment, reduction or multi-assignment): within one, its remote values can be
// fetched once and kept until the pulse ends.
//
// Definition 3: a pulse is an inter-process synchronisation after a period of computation within
// each process. Each collective vertex loop (a forall over g.nodes() or a SetN) ends in one, and so
// does each level of an iterateInBFS and of an iterateInReverse; a fixedPoint adds one per
// iteration to decide whether to go on. A pulse whose statement is reduction-exclusive is
// aggregated: its reductions wait in the bulk-reduction queue and travel together at its end.
//
// Hoisting (loop-invariant code motion, not in paper 004): inside a neighbour loop of a vertex
// loop, an expression with an operator that reads only one node's properties and degrees (the
// neighbour's, or the vertex the loop walks from), literals and scalars of the collective level, has
// the same value each time that node is met, provided nothing it reads is written in the vertex
// loop. One of the neighbour is computed once per node before the pulse, into a property the
// compiler adds, whose mirrors are refreshed in place of those of what it reads (pagerank's
// rank / out-degree: once per node, not once per in-edge); one of the vertex once before the
// neighbour loop. Integer division is not hoisted: computed for nodes the loop never reaches, it
// could divide by zero. So is a floating-point expression of the vertex loop's body that reads no
// node, only literals and collective scalars the loop does not write: once before the loop
// (pagerank's (1 - damping) / n, which the C++ compiler recomputes per node: an atomic store
// between two nodes is a barrier to it). A per-neighbour value is computed inside the nearest vertex loop over
// every node before its pulse in the same block (before that loop's filter), when nothing between
// them, that loop included, writes what it reads and no other loop stands between (pagerank's
// dangling sum and its rank / out-degree: one pass over the masters).
//
// Split pulls (Gluon's partial reductions, not in paper 004): a loop over g.nodes_to(v) whose only
// statement adds a term to a scalar of v's iteration (s = s + E, s += E), where E reads only the
// neighbour's properties and degrees, literals and scalars of the collective level, none of them
// written in the vertex loop, sums the same whichever rank holds each edge. The optimised
// generation then runs it over an outgoing edge cut: before the vertex loop every rank sums its own
// in-edges of every node it holds (each neighbour is one of its masters: local memory, no mirror
// refreshed) and mirrors' sums are added into their masters in one bulk reduction; the loop becomes
// s = s + the master's sum. A function's loops over g.nodes_to are split all or none: one that
// cannot be needs every master's complete in-edges, and then none gains.
//
// Bottom-up steps (Beamer's direction optimization, not in paper 004): a vertex loop over the
// nodes flagged in a bool property F whose only statement is a loop over g.neighbors(v) whose only
// statement offers every neighbour the same value (<nbr.p, nbr.q...> = <Min(nbr.p, C), k...>, or
// Max, with C and the k literals or collective scalars) gives every node with a flagged
// in-neighbour Min(p, C), whichever flagged in-neighbour offers it. The optimised generation may
// then run a round the other way: every node the offer would still lower scans its in-edges (each
// rank its own, over an outgoing cut) for one flagged in-neighbour and stops there. Each round
// chooses by Beamer's rule: pull while the frontier's out-edges outweigh the edges left
// unexplored over alpha, push again once the frontier shrinks below the nodes over beta.
//
// Property moves (copy elimination, not in paper 004): a copy `p = q;` of a local node property q
// that nothing reads afterwards before every node's q is written again (by g.attachNodeProperty(q
// = ...), a copy into q, or a forall over g.nodes() without a filter that sets v.q and reads no q),
// or that nothing reads again at all, may hand q's values to p: the two exchange their storage in
// O(1) where a copy moves every node's value (pagerank's `rank = next_rank`, once a step). On every
// way on from the copy counts: a loop's condition, its next iteration and its end. bool properties
// are copied still (a word per 64 nodes).
#include <string>
#include <vector>

#include "courier/dsl/program.hpp"

namespace courier::dsl {

struct ExclusiveStatement {
  const Stmt* statement = nullptr;
  const Stmt* reduction = nullptr;      // R, of the statement that satisfies Definition 1
  std::vector<const Symbol*> elements;  // E: what R reduces
  const Stmt* enclosing = nullptr;      // by Lemma 1: the outermost statement of Definition 1 it is in;
                                        // null when the statement is that outermost one itself
};

struct NotExclusive {
  const Stmt* statement = nullptr;
  std::vector<const Stmt*> reductions;  // the reduction statements it reaches (at least one)
  // When it reaches one reduction: an access of what that reduces outside it.
  const Symbol* conflict = nullptr;
  Location conflict_location;
  bool conflict_updates = false;
};

struct CacheSafety {
  struct Update {
    Location location;
    const Stmt* in = nullptr;  // the outermost reduction-exclusive statement it is in
  };
  const Symbol* property = nullptr;
  bool safe = true;
  std::vector<Update> updates;  // inside reduction-exclusive statements: why it is not safe
  std::vector<Location> reads;  // inside reduction-exclusive statements: what caching would serve
};

enum class PulseKind : std::uint8_t {
  VertexLoop,    // a forall over g.nodes() or a SetN
  BfsLevel,      // each level of an iterateInBFS body
  ReverseLevel,  // each level of an iterateInReverse body
  Convergence,   // each iteration of a fixedPoint: is its condition true on every node?
};

struct Pulse {
  const Stmt* statement = nullptr;
  PulseKind kind = PulseKind::VertexLoop;
  // The computation before it is reduction-exclusive: its reductions are deferred to its end.
  bool aggregated = false;
  std::vector<const Stmt*> reductions;      // the reduction statements it synchronises
  std::vector<const Symbol*> synchronised;  // the properties and variables they reduce; for a
                                            // Convergence, the properties of the condition
  std::vector<const Symbol*> assigned;      // properties set by plain assignment (ranks holding copies
                                            // of the nodes need the new values)
  std::vector<const Stmt*> remote_writes;   // assignments to properties of nodes the rank may not own
  const Stmt* repeated_by = nullptr;        // the innermost collective loop that repeats it
};

enum class HoistKind : std::uint8_t {
  PerNeighbour,  // of the loop's neighbour: once per node before the pulse, a compiler-added property
  PerVertex,     // of the vertex the loop walks from: once before the neighbour loop
};

struct Hoisted {
  const Expr* expression = nullptr;  // a maximal one
  const Stmt* loop = nullptr;        // the innermost neighbour loop it is in
  const Stmt* pulse = nullptr;       // the vertex loop
  HoistKind kind = HoistKind::PerNeighbour;
  // Per neighbour: the vertex loop over every node before the pulse, in the same block, that
  // computes it node by node as well (loop fusion: one pass over the masters fewer), or null.
  const Stmt* computed_in = nullptr;
};

// An expression of one node that stays in its loop, and why.
struct NotHoisted {
  const Expr* expression = nullptr;
  const Stmt* loop = nullptr;
  const Symbol* written = nullptr;  // what it reads that the vertex loop writes (or null)
  Location written_at;
  bool integer_division = false;
};

struct SplitPull {
  const Stmt* loop = nullptr;           // the loop over g.nodes_to(v)
  const Stmt* pulse = nullptr;          // its vertex loop
  const Symbol* accumulator = nullptr;  // the scalar it adds to
  const Expr* term = nullptr;           // E: what each in-edge adds
};

struct NotSplit {
  const Stmt* loop = nullptr;
  std::string reason;
  Location at;  // where the reason is
};

struct BottomUp {
  const Stmt* pulse = nullptr;      // the vertex loop over the flagged nodes
  const Stmt* loop = nullptr;       // its loop over g.neighbors(v)
  const Stmt* reduction = nullptr;  // the offer
  const Symbol* flag = nullptr;     // F
};

// A floating-point expression of a vertex loop's body (outside its neighbour loops) that reads only
// literals and collective scalars the loop does not write: computed once before the loop.
struct Invariant {
  const Expr* expression = nullptr;  // a maximal one
  const Stmt* pulse = nullptr;       // the vertex loop
};

struct PropertyMove {
  const Stmt* copy = nullptr;          // the statement p = q
  const Stmt* rewritten_by = nullptr;  // where every node's q is written next; null: never read again
};

struct NotMoved {
  const Stmt* copy = nullptr;
  std::string reason;
  Location at;  // where the reason is
};

struct FunctionAnalysis {
  const Function* function = nullptr;
  std::vector<ExclusiveStatement> exclusive;  // in source order
  std::vector<NotExclusive> not_exclusive;    // statements reaching reductions that are not exclusive
  std::vector<CacheSafety> properties;        // every property, in declaration order
  std::vector<Pulse> pulses;                  // in the order they happen within one iteration
  std::vector<Hoisted> hoisted;               // in source order
  std::vector<NotHoisted> not_hoisted;
  std::vector<Invariant> invariants;   // in source order
  std::vector<SplitPull> split_pulls;  // in source order; empty when not_split is not
  std::vector<NotSplit> not_split;
  std::vector<BottomUp> bottom_up;  // in source order
  std::vector<PropertyMove> moves;  // in source order
  std::vector<NotMoved> not_moved;

  const ExclusiveStatement* find_exclusive(const Stmt& s) const;  // null when not reduction-exclusive
  const CacheSafety* find_property(const Symbol& property) const;
  const Hoisted* find_hoisted(const Expr& e) const;         // null when e stays where it is
  const SplitPull* find_split(const Stmt& loop) const;      // null when the loop is not split
  const BottomUp* find_bottom_up(const Stmt& pulse) const;  // null when the vertex loop only pushes
  const PropertyMove* find_move(const Stmt& copy) const;    // null when the copy copies
};

struct Analysis {
  std::vector<FunctionAnalysis> functions;  // one per function of the program, in order
};

Analysis analyse(const Program& program);

// The split pulls and bottom-up steps of one function alone (what its partition needs; analyse()
// includes them).
FunctionAnalysis pulls_of(const Function& function);

// The bool property a vertex loop's filter tests (`F == True` or `F`, of the loop's node), or null.
const Symbol* flag_filter(const Expr* filter, const Symbol* variable);

// The analysis as `courierc --emit analysis` prints it: every reduction-exclusive statement, every
// property's cache safety, every pulse and every hoisted expression, each with its line:column and
// the reason.
std::string format_analysis(const Program& program, const Analysis& analysis);

}  // namespace courier::dsl
