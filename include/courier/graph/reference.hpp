#pragma once
// Sequential reference algorithms: the answers every distributed result is checked against.
// Definitions follow what users of networkx, igraph and GAP expect.
#include <cstdint>
#include <limits>
#include <vector>

#include "courier/graph/csr.hpp"

namespace courier::graph::reference {

inline constexpr std::uint64_t kUnreached = std::numeric_limits<std::uint64_t>::max();

struct BfsResult {
  std::vector<std::uint64_t> level;   // kUnreached where not reached
  std::vector<vertex_t> parent;       // kNoVertex where not reached; the source is its own parent
};
// Following edge directions.
BfsResult bfs(const Csr& graph, vertex_t source);

// Dijkstra following edge directions. Integer weights give exact integer distances; float weights
// give double distances. Unweighted graphs throw InputError (sssp needs weights).
struct SsspResult {
  WeightType weight_type = WeightType::u32;
  std::vector<std::uint64_t> dist_int;  // u32 weights; kUnreached where not reached
  std::vector<double> dist_real;        // f32 weights; +infinity where not reached
};
SsspResult sssp(const Csr& graph, vertex_t source);

// Weakly connected components, each labelled by its smallest vertex id.
std::vector<vertex_t> connected_components(const Csr& graph);

struct PagerankOptions {
  double damping = 0.85;
  double tolerance = 1e-9;        // stop when the L1 change of a step is below it
  unsigned max_iterations = 1000;
};
struct PagerankResult {
  std::vector<double> rank;       // sums to 1
  unsigned iterations = 0;
  double last_change = 0;         // L1 change of the last step
  bool converged = false;
};
// Mass of vertices without out-edges is spread evenly over all vertices.
PagerankResult pagerank(const Csr& graph, const PagerankOptions& options = {});

// The graph taken as undirected (both directions, no loops, no duplicates).
struct TriangleResult {
  std::vector<std::uint64_t> per_vertex;
  std::uint64_t total = 0;
};
TriangleResult triangles(const Csr& graph);
std::vector<std::uint32_t> kcore(const Csr& graph);   // core numbers, undirected
std::vector<std::uint64_t> out_degrees(const Csr& graph);

}  // namespace courier::graph::reference
