#pragma once
// SuiteSparse:GraphBLAS as the la engine's peer (issue 14): pagerank and bfs in their standard
// formulations (pagerank pulls through A' with plus-times, so that a parallel edge counts twice as
// in the reference; bfs pushes with any-pair under the complement of the visited set), on the
// same graph, timed the way Courier times a run (the algorithm alone, not building the matrix).
// Built only when CMake finds GraphBLAS (COURIER_HAVE_GRAPHBLAS).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "courier/graph/csr.hpp"

namespace courier::bench {

class GraphblasPeer {
 public:
  // A(u, v) = 1 for every edge u -> v of `graph`; `threads` for GraphBLAS's own OpenMP.
  GraphblasPeer(const graph::Csr& graph, unsigned threads);
  ~GraphblasPeer();
  GraphblasPeer(const GraphblasPeer&) = delete;
  GraphblasPeer& operator=(const GraphblasPeer&) = delete;

  // Seconds of `iterations` pagerank steps (the reference's definition: damping 0.85, dangling
  // rank spread over all); `rank` gets the result.
  double pagerank(unsigned iterations, std::vector<double>& rank);
  // Seconds of a level-synchronous bfs from `source`: a vector-matrix product under the
  // any-pair semiring, masked by the complement of the visited set; `level` gets the levels.
  double bfs(graph::vertex_t source, std::vector<std::uint64_t>& level);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace courier::bench
