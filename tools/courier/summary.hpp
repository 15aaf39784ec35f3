#pragma once
// Turning an algorithm's per-vertex values into the summary `courier run` prints, whatever engine
// computed them, so the engines agree on what a run reports.
#include <cstdint>
#include <string>

#include "run_result.hpp"

namespace courier::cli {

// What a summary needs beyond the values.
struct RunFacts {
  graph::vertex_t source = graph::kNoVertex;  // bfs, sssp
  unsigned iterations = 0;                    // pagerank
  bool converged = false;                     // pagerank
  double last_change = 0;                     // pagerank
  std::uint64_t triangles = 0;                // tc
};

RunResult summarise(const std::string& algorithm, VertexValues values, const RunFacts& facts, const RunOptions& options,
                    std::uint64_t edges);

}  // namespace courier::cli
