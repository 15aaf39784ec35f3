#pragma once
// The benchmark's graphs: a generator spec or a file, symmetrized and weighted (uint32 in
// [1, 255], as Table II's sssp needs), loaded once per graph on every rank; then, once per rank
// count, this rank's partition (outgoing edge cut, with in-edges for pull), connected to its peers.
#include <mpi.h>

#include <memory>
#include <string>

#include "courier/dist/local_graph.hpp"
#include "courier/graph/edge_list.hpp"

namespace courier::bench {

struct BenchGraph {
  std::string spec;
  graph::EdgeList edges;
  std::vector<graph::edge_t> out_degree;
  graph::vertex_t source = 0;  // the largest out-degree (smallest id on ties): in the giant component
};

BenchGraph load_bench_graph(const std::string& spec, bool dedupe);

// This rank's partition of `graph` over the ranks of `comm` (collective over `comm`).
std::unique_ptr<dist::LocalGraph> partition_share(const BenchGraph& graph, MPI_Comm comm);

}  // namespace courier::bench
