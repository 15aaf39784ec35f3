#pragma once
// Sending edges to the ranks that keep them, in rounds of a bounded number of edges per rank, so a
// rank's memory stays about its own share (its edges, what it received, one round's buffers).
#include <functional>

#include "courier/dist/collective.hpp"
#include "courier/graph/edge_list.hpp"

namespace courier::dist {

// Every edge of `mine` (weights alongside) goes to rank owner(src, dst); returns the edges sent
// here, in no particular order (a LocalGraph's rows and dedupe's output do not depend on it). `weight_type` is the type
// every rank has (an empty part may carry no weights). Collective.
graph::EdgeList shuffle_edges(graph::EdgeList mine, const std::function<rank_t(vertex_t, vertex_t)>& owner,
                              graph::WeightType weight_type, edge_t chunk, const Collective& collective);

}  // namespace courier::dist
