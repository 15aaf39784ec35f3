#pragma once
// Small hand-made graphs for the graph tests.
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "courier/graph/csr.hpp"
#include "courier/graph/edge_list.hpp"
#include "courier/graph/generate.hpp"

namespace courier::graph::testing {

inline EdgeList edge_list(vertex_t n, std::initializer_list<Edge> edges) {
  EdgeList list;
  list.num_vertices = n;
  list.edges = edges;
  return list;
}

template <class W>
EdgeList weighted_edge_list(vertex_t n, std::initializer_list<Edge> edges, std::vector<W> weights) {
  EdgeList list = edge_list(n, edges);
  list.weights = std::move(weights);
  return list;
}

inline Csr csr(vertex_t n, std::initializer_list<Edge> edges) { return build_csr(edge_list(n, edges)); }

template <class W>
Csr weighted_csr(vertex_t n, std::initializer_list<Edge> edges, std::vector<W> weights) {
  return build_csr(weighted_edge_list(n, edges, std::move(weights)));
}

// Both directions of every edge.
inline Csr undirected_csr(vertex_t n, std::initializer_list<Edge> edges) {
  EdgeList list = edge_list(n, edges);
  for (const Edge& e : edges) list.edges.push_back({e.dst, e.src});
  return build_csr(list);
}

// A generated graph as a Csr, e.g. generated_csr(Generator::uniform, 8).
inline Csr generated_csr(Generator kind, int scale, std::uint64_t seed = 1, bool weights = false,
                         int edge_factor = 16) {
  GeneratorOptions options;
  options.kind = kind;
  options.scale = scale;
  options.seed = seed;
  options.weights = weights;
  options.edge_factor = edge_factor;
  return build_csr(generate(options));
}

template <class T>
std::vector<T> to_vector(std::span<const T> s) {
  return std::vector<T>(s.begin(), s.end());
}

}  // namespace courier::graph::testing
