#pragma once
// RunSpec: everything that says what one analysis is: which algorithm, on which graph, by which
// engine, over how many ranks and threads, with which options. The CLI fills one from its command
// line; a C++ program or a binding fills one directly and calls harness::run (run.hpp).
#include <string>

#include "courier/graph/load.hpp"
#include "courier/harness/option.hpp"

namespace courier::harness {

struct RunSpec {
  std::string algorithm{};         // a name or an alias (Registry::algorithm)
  // A file (format by extension) or a generator spec (kron:16); with load.memory (a graph the
  // program holds, e.g. from Python), only its name in messages and --json.
  std::string graph{};
  std::string engine = "vertex";   // Registry::engine
  graph::LoadOptions load{};       // how the graph is read and transformed
  // Ranks as threads of this process (the local transport); under an MPI launcher the launched
  // processes are the ranks and this is ignored.
  int ranks = 1;
  unsigned threads = 2;  // compute threads per rank, the rank's own included
  // Options the algorithm and the engine declare, by name ("source", "policy", "routing", ...);
  // unset ones take their declared defaults.
  Options options{};
  bool verify = false;   // check the result against the problem's definition or the reference
  bool verbose = false;  // the engine's detail: every round, every rank
};

}  // namespace courier::harness
