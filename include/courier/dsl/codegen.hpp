#pragma once
// Code generation: a checked program and its analyses become C++ over the runtime
// (courier/dsl/runtime.hpp): one function per source function, indented, each statement led by a
// #line directive back to the .sp file.
//
// The optimised generation applies paper 004's transformations where the analyses allow them:
//  - a pulse whose computation is reduction-exclusive is aggregated: its reductions update
//    masters at once (short circuiting) and mirrors in place, and travel in one bulk reduction
//    (NodeProperty::finish_reduce) where the pulse ends; a multi-assignment's other targets are
//    set where the reduction lowered the master;
//  - inside reduction-exclusive statements, properties are read straight from local memory (the
//    get bypass); elsewhere through the property's window;
//  - a property read through mirrors is refreshed before each pulse that reads it, with only the
//    masters changed since the last refresh when it is opportunistic-cache-safe, all otherwise;
//  - neighbours are visited in CSR order, so g.get_edge(v, nbr) is the edge in hand;
//  - a loop filtered on a bool property visits its frontier.
// The naive generation does what StarPlat's original distributed backend does: every read and
// write through the window, every reduction an entry for the owner in its statement's queue
// (local targets too), each statement's queue synchronised on its own, every refresh of all
// masters, neighbours visited by id and each edge searched for.
#include <string>

#include "courier/dsl/analysis.hpp"
#include "courier/dsl/program.hpp"
#include "courier/dsl/runtime/layout.hpp"

namespace courier::dsl {

struct CodegenOptions {
  rt::Generation generation = rt::Generation::optimised;
  std::string name_space = "courier::dsl::programs";  // the naive generation goes in <name_space>::naive
  std::string line_file;                              // the .sp file as #line names it; empty: the program's
  std::string header;                                 // the header the source includes; empty: none
};

// The .cpp of one generation. CompileError for a construct this backend cannot distribute.
std::string generate_source(const Program& program, const Analysis& analysis, const CodegenOptions& options);
// The header declaring both generations' functions and, for each, what partition it needs.
std::string generate_header(const Program& program, const CodegenOptions& options);
// Which edges of its masters the function visits (the partition it needs).
rt::Needs needs_of(const Function& function);

}  // namespace courier::dsl
