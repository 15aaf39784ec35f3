#pragma once
// The graphs every algorithm is tested on: small Kronecker and uniform random graphs, a long
// path, a star, disconnected pieces with isolated vertices; weighted where sssp needs it.
#include <cstdint>
#include <string>
#include <vector>

#include "courier/graph/edge_list.hpp"
#include "courier/graph/generate.hpp"

namespace courier::test_support {

struct NamedGraph {
  std::string name;
  graph::EdgeList edges;
};

inline graph::EdgeList weighted(graph::EdgeList list, std::uint64_t seed) {
  std::vector<std::uint32_t> w(list.edges.size());
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<std::uint32_t>((i * 2654435761u + seed * 40503u) % 255 + 1);
  list.weights = std::move(w);
  return list;
}

inline graph::EdgeList generated(graph::Generator kind, int scale, bool weights) {
  graph::GeneratorOptions options;
  options.kind = kind;
  options.scale = scale;
  options.edge_factor = 8;
  options.weights = weights;
  options.threads = 1;
  return graph::generate(options);
}

inline graph::EdgeList path(graph::vertex_t n) {
  graph::EdgeList list;
  list.num_vertices = n;
  for (graph::vertex_t v = 0; v + 1 < n; ++v) list.edges.push_back({v, v + 1});
  return list;
}

inline graph::EdgeList star(graph::vertex_t n) {
  graph::EdgeList list;
  list.num_vertices = n;
  for (graph::vertex_t v = 1; v < n; ++v) {
    list.edges.push_back({0, v});
    if (v % 3 == 0) list.edges.push_back({v, 0});
  }
  return list;
}

// Three pieces (a cycle, a clique-ish block, a small path going backwards) and isolated vertices
// interleaved, so components are not ranges of ids.
inline graph::EdgeList pieces() {
  graph::EdgeList list;
  list.num_vertices = 120;
  for (graph::vertex_t i = 0; i < 30; ++i) list.edges.push_back({3 * i, 3 * ((i + 1) % 30)});
  for (graph::vertex_t a = 0; a < 8; ++a)
    for (graph::vertex_t b = 0; b < 8; ++b)
      if (a != b && (a + b) % 3 != 0) list.edges.push_back({91 + 2 * a, 91 + 2 * b});
  for (graph::vertex_t v = 118; v > 100; v -= 4) list.edges.push_back({v, v - 4});
  return list;
}

inline std::vector<NamedGraph> test_graphs(bool weights) {
  std::vector<NamedGraph> graphs;
  graphs.push_back({"kron:9", generated(graph::Generator::kronecker, 9, weights)});
  graphs.push_back({"urand:10", generated(graph::Generator::uniform, 10, weights)});
  graphs.push_back({"path:300", path(300)});
  graphs.push_back({"star:400", star(400)});
  graphs.push_back({"pieces", pieces()});
  if (weights)
    for (std::size_t i = 2; i < graphs.size(); ++i) graphs[i].edges = weighted(std::move(graphs[i].edges), i);
  return graphs;
}

}  // namespace courier::test_support
