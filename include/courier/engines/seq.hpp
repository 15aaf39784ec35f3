#pragma once
// The `seq` engine: an algorithm's sequential reference (its descriptor's `reference`) on the whole
// graph, in this process. It runs every algorithm that has a reference.
#include <memory>

#include "courier/graph/csr.hpp"
#include "courier/harness/engine.hpp"

namespace courier::engines {

std::shared_ptr<const harness::Engine> seq_engine();

// The source asked for, or the vertex with the largest out-degree (the smallest id on ties, never
// an isolated vertex unless all are); InputError if it is not a vertex of the graph.
graph::vertex_t resolve_source(const graph::Csr& graph, graph::vertex_t asked);

}  // namespace courier::engines
