#pragma once
// Writing partitioned .csr files (graph/partitioned_csr.hpp): every rank's LocalGraph of a graph,
// made once for N ranks and a policy, so that runs with those map their parts and skip
// partitioning (load_distributed reads them).
#include <string>

#include "courier/dist/partition_plan.hpp"
#include "courier/graph/edge_list.hpp"

namespace courier::dist {

// Partitions `edges` for `ranks` ranks with `policy`, exactly as a run would, and writes the parts
// to PATH (a temporary renamed once complete). Holds every part in memory while writing.
void write_partitioned(const std::string& path, const graph::EdgeList& edges, Policy policy, rank_t ranks);

}  // namespace courier::dist
