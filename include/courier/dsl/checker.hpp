#pragma once
// The type checker: resolves every name to its Symbol, gives every expression its type, resolves
// graph methods and loop domains, classifies reductions, marks statements that run per vertex, and
// enforces what a distributed backend needs. Throws CompileError at the first violation, naming
// FILE:LINE:COLUMN, what was expected and what was found.
//
// The rules beyond types (the nesting rule):
//  - Vertex loops: a forall (or for) over g.nodes(), a forall over a SetN, iterateInBFS and
//    iterateInReverse bodies run per vertex, each rank on the vertices it owns. Inside one, every
//    statement is per vertex.
//  - Collective statements must not be per vertex: a loop over g.nodes(), a forall over a SetN,
//    fixedPoint, iterateInBFS, property declarations, g.attachNodeProperty/attachEdgeProperty,
//    copying a whole property, and return. (A vertex forall inside another vertex loop would ask
//    one vertex's iteration to run a loop over the whole graph, which every rank must join.)
//  - A neighbour loop (g.neighbors(x), g.nodes_to(x)) must be inside a vertex loop and x must be the
//    variable of an enclosing vertex loop: that vertex's edges are on the rank running it. The
//    neighbours of a neighbour may be on another rank, so loops over them are refused. Neighbour
//    loops may nest in each other (triangle counting) and run in order within one vertex's turn.
//  - A scalar declared outside vertex loops is shared by all their iterations: inside a vertex
//    loop it may only be updated by a reduction (+=, ||=, Min, ...), never assigned (a race).
//  - Reductions target a property element (v.p), or a number or bool variable; Min and Max need a
//    number or node; the extra targets of <..> = <Min(..), ..> must be properties of the same
//    element as the first.
//  - fixedPoint's variable is a bool and its condition is a bool over node properties, a bare
//    property name standing for each node's value. A loop's filter may name properties bare too:
//    they are the loop variable's (`.filter(modified == True)` is `v.modified == True`), and the
//    checker rewrites them so.
#include "courier/dsl/program.hpp"

namespace courier::dsl {

void check(Program& program);

}  // namespace courier::dsl
