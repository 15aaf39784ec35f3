#pragma once
// Small uniformly random directed graphs for tests that need "some graph" quickly.
#include <cstdint>
#include <random>

#include "courier/graph/edge_list.hpp"

namespace courier::test_support {

inline graph::EdgeList random_graph(graph::vertex_t n, std::size_t m, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  graph::EdgeList list;
  list.num_vertices = n;
  for (std::size_t i = 0; i < m; ++i) list.edges.push_back({rng() % n, rng() % n});
  return list;
}

}  // namespace courier::test_support
