// Vertex orders for relabel: random (to spread hubs) and by degree (hubs first).
#include <algorithm>
#include <numeric>
#include <utility>

#include "courier/core/random.hpp"
#include "courier/graph/transform.hpp"
#include "edge_list_support.hpp"

namespace courier::graph {

std::vector<vertex_t> random_permutation(vertex_t n, std::uint64_t seed) {
  std::vector<vertex_t> perm(n);
  std::iota(perm.begin(), perm.end(), vertex_t{0});
  // Fisher-Yates on our own generator: std's distributions differ between standard libraries.
  SplitMix64 random(stream_key(seed, 0x9e7));
  for (vertex_t i = n; i > 1; --i) std::swap(perm[i - 1], perm[random_below(random.next(), i)]);
  return perm;
}

std::vector<vertex_t> degree_order(const EdgeList& list) {
  detail::check_edge_list(list, "degree_order");
  const vertex_t n = list.num_vertices;
  std::vector<edge_t> degree(n, 0);
  for (const Edge& e : list.edges) ++degree[e.src];

  // Counting sort by degree, highest first: first_id[d] is the first new id of degree d.
  edge_t max_degree = 0;
  for (edge_t d : degree) max_degree = std::max(max_degree, d);
  std::vector<vertex_t> first_id(max_degree + 2, 0);
  for (edge_t d : degree) ++first_id[max_degree - d + 1];
  std::partial_sum(first_id.begin(), first_id.end(), first_id.begin());
  std::vector<vertex_t> new_id(n);
  for (vertex_t v = 0; v < n; ++v) new_id[v] = first_id[max_degree - degree[v]]++;
  return new_id;
}

}  // namespace courier::graph
