#pragma once
// load_graph: what every command means by GRAPH — a file (format by extension) or a generator
// spec such as "kron:16" — turned into a Csr, with the transforms a user asked for on the way.
// A program that holds its graph in memory (the Python bindings) sets LoadOptions::memory instead:
// every loader then takes that graph, and GRAPH only names it in messages.
#include <cstdint>
#include <memory>
#include <string>

#include "courier/graph/csr.hpp"
#include "courier/graph/edge_list.hpp"
#include "courier/graph/generate.hpp"
#include "courier/graph/io.hpp"

namespace courier::graph {

struct LoadOptions {
  ReadOptions read;              // for files (base, binary layout); read.symmetrize is ignored
  bool symmetrize = false;
  bool drop_self_loops = false;
  bool dedupe = false;
  bool weights = false;          // generators: random weights in [1, 255]
  std::uint64_t seed = 1;        // generators, unless the spec names its own
  unsigned threads = 0;          // generators: 0 = all cores
  // A graph already in memory, read in place of GRAPH: load_graph without transforms returns it
  // (its storage shared, not copied), read_edge_slice gives part p of P its p-th share of the
  // edges (a copy of that share only), and the transforms apply as to a file. Shared read-only
  // by the ranks of this process; under MPI every process holds its own, the same graph. The
  // caller ensures a valid Csr (targets below num_vertices), as a reader's checks would.
  std::shared_ptr<const Csr> memory;
};

bool is_generator_spec(const std::string& graph);
EdgeList load_edge_list(const std::string& graph, const LoadOptions& options = {});
// A .csr file with no transforms asked for is mapped, not parsed.
Csr load_graph(const std::string& graph, const LoadOptions& options = {});
// The transforms of `options` in a fixed order: symmetrize, drop self loops, dedupe.
EdgeList apply_transforms(EdgeList edges, const LoadOptions& options);

}  // namespace courier::graph
