#pragma once
// Sending edges to the ranks that keep them, in rounds of a bounded number of edges per rank, so a
// rank's memory stays about its own share (its edges, what it received, one round's buffers).
#include <functional>

#include "courier/dist/collective.hpp"
#include "courier/dist/local_graph.hpp"
#include "courier/graph/csr_rows.hpp"
#include "courier/graph/edge_list.hpp"

namespace courier::dist {

// Every edge of `mine` (weights alongside) goes to rank owner(src, dst); returns the edges sent
// here, in no particular order (a LocalGraph's rows and dedupe's output do not depend on it). `weight_type` is the type
// every rank has (an empty part may carry no weights). Collective.
graph::EdgeList shuffle_edges(graph::EdgeList mine, const std::function<rank_t(vertex_t, vertex_t)>& owner,
                              graph::WeightType weight_type, edge_t chunk, const Collective& collective);

// The same from a .csr part's rows (graph/csr_rows.hpp), each edge to plan.edge_owner (looked up
// once a row where the policy allows), read a round at a time and each round's
// pages released once sent; what arrives are runs of one source in 32-bit ids (num_vertices, the
// same on every rank, at most 2^32), and so is what travels: a run's source once, then 4 bytes an
// edge (8 with weights). `weight_type` is the type every rank's rows have. Collective.
EdgeRuns shuffle_rows(const graph::CsrRows& rows, vertex_t num_vertices, const PartitionPlan& plan,
                      graph::WeightType weight_type, edge_t chunk, const Collective& collective);

}  // namespace courier::dist
