#pragma once
// The `seq` engine: the sequential references, summarised for `courier run`, and checked by the
// independent verifiers (bfs, sssp, cc, pagerank) when asked to.
#include <string>
#include <vector>

#include "courier/graph/csr.hpp"
#include "run_result.hpp"

namespace courier::cli {

const std::vector<std::string>& sequential_algorithms();
RunResult run_sequential(const std::string& algorithm, const graph::Csr& graph, const RunOptions& options);
// Fills result.verifier and result.mismatch.
void verify_sequential(const std::string& algorithm, const graph::Csr& graph, const RunOptions& options,
                       RunResult& result);
// The default source: the vertex with the largest out-degree (never an isolated vertex).
graph::vertex_t default_source(const graph::Csr& graph);

}  // namespace courier::cli
