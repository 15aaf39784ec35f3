#pragma once
// Transforms of edge lists and CSRs. Each returns a new graph; weights follow their edges. Edge
// lists whose ids are not below num_vertices, or whose weights do not match the edges, throw
// courier::Error.
#include <cstdint>
#include <vector>

#include "courier/graph/csr.hpp"
#include "courier/graph/edge_list.hpp"

namespace courier::graph {

// Adds the reverse of every non-loop edge: the input edges come first, in order, then the
// reverses in the same order (the graph may then hold duplicates; see remove_duplicate_edges).
EdgeList symmetrize(const EdgeList& edges);
EdgeList remove_self_loops(const EdgeList& edges);  // keeps the order of the rest
// One edge per (src, dst) pair, with the smallest weight of the pair; the result is sorted by
// (src, dst).
EdgeList remove_duplicate_edges(const EdgeList& edges);
// In-edges as a Csr: row v holds the sources of v's in-edges in ascending order, weights alongside.
Csr transpose(const Csr& csr);
// The undirected simple graph under `csr`: both directions of every edge, no self loops, no
// duplicates, rows sorted, no weights (what triangle counting and k-cores work on).
Csr simple_undirected(const Csr& csr);

// new_id[v] is the new id of v, a permutation of [0, num_vertices) (else courier::Error); the
// result has the same number of vertices and the edges in the same order.
EdgeList relabel(const EdgeList& edges, const std::vector<vertex_t>& new_id);
// A uniformly random permutation of [0, n), the same for a given seed on every machine.
std::vector<vertex_t> random_permutation(vertex_t n, std::uint64_t seed);
// new_id for relabel: the highest out-degree gets id 0, ties in the order of the old ids.
std::vector<vertex_t> degree_order(const EdgeList& edges);

// Drops ids that no edge touches, keeping the order of the others; original_id[new] tells where
// each vertex came from. The edges keep their order.
struct Compacted {
  EdgeList edges;
  std::vector<vertex_t> original_id;
};
Compacted compact_ids(const EdgeList& edges);

}  // namespace courier::graph
