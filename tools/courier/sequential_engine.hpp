#pragma once
// The `seq` engine: the sequential references, summarised for `courier run`, and checked by the
// independent verifiers (bfs, sssp, cc, pagerank) when asked to.
#include <string>
#include <vector>

#include "courier/graph/csr.hpp"
#include "run_result.hpp"

namespace courier::cli {

const std::vector<std::string>& algorithm_names();
RunResult run_sequential(const std::string& algorithm, const graph::Csr& graph, const RunOptions& options);
// Checks a result against the problem's definition (bfs, sssp, cc, pagerank) or, where there is
// no independent checker, against the sequential reference; fills verifier and mismatch.
void verify_result(const std::string& algorithm, const graph::Csr& graph, const RunOptions& options,
                   bool result_is_the_reference, RunResult& result);
// The source asked for, or the vertex with the largest out-degree (never an isolated vertex);
// InputError if it is not a vertex of the graph.
graph::vertex_t resolve_source(const graph::Csr& graph, const RunOptions& options);

}  // namespace courier::cli
