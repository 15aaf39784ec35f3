#pragma once
// Transforms of edge lists and CSRs. Each returns a new graph; weights follow their edges.
#include <cstdint>
#include <vector>

#include "courier/graph/csr.hpp"
#include "courier/graph/edge_list.hpp"

namespace courier::graph {

EdgeList symmetrize(const EdgeList& edges);            // adds the reverse of every non-loop edge
EdgeList remove_self_loops(const EdgeList& edges);
EdgeList remove_duplicate_edges(const EdgeList& edges); // keeps the smallest weight of a pair
Csr transpose(const Csr& csr);                          // in-edges as a Csr

// new_id[v] is the new id of v; the result has the same number of vertices.
EdgeList relabel(const EdgeList& edges, const std::vector<vertex_t>& new_id);
std::vector<vertex_t> random_permutation(vertex_t n, std::uint64_t seed);
std::vector<vertex_t> degree_order(const EdgeList& edges);  // highest out-degree gets id 0

// Drops ids that no edge touches; original_id[new] tells where each vertex came from.
struct Compacted {
  EdgeList edges;
  std::vector<vertex_t> original_id;
};
Compacted compact_ids(const EdgeList& edges);

}  // namespace courier::graph
