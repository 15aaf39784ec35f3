#include "edge_list_support.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "courier/core/error.hpp"

namespace courier::graph::detail {

void check_edge_list(const EdgeList& list, const char* who) {
  const vertex_t n = list.num_vertices;
  for (const Edge& e : list.edges)
    if (e.src >= n || e.dst >= n)
      throw Error(fmt::format("{}: edge {} -> {} is outside the {} vertices", who, e.src, e.dst, n));
  std::visit(
      [&](const auto& w) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(w)>, std::monostate>)
          if (w.size() != list.edges.size())
            throw Error(fmt::format("{}: {} weights for {} edges", who, w.size(), list.edges.size()));
      },
      list.weights);
}

EdgeWeights gather_weights(const EdgeWeights& weights, std::span<const edge_t> order) {
  return map_weights(weights, [&](const auto& w) {
    std::decay_t<decltype(w)> out(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) out[i] = w[order[i]];
    return out;
  });
}

namespace {

// One stable counting pass: `from` reordered by key(edge), into `to`.
template <class Key>
void counting_pass(const EdgeList& list, const std::vector<edge_t>& from, std::vector<edge_t>& to,
                   Key key) {
  std::vector<edge_t> next(list.num_vertices + 1, 0);
  for (edge_t i : from) ++next[key(list.edges[i]) + 1];
  std::partial_sum(next.begin(), next.end(), next.begin());
  for (edge_t i : from) to[next[key(list.edges[i])]++] = i;
}

}  // namespace

std::vector<edge_t> sorted_edge_order(const EdgeList& list) {
  const edge_t m = list.edges.size();
  std::vector<edge_t> order(m);
  std::iota(order.begin(), order.end(), edge_t{0});
  if (list.num_vertices > 4 * m + 4096) {
    // Few edges over a huge id range: counting arrays would dwarf the edges.
    std::stable_sort(order.begin(), order.end(),
                     [&](edge_t a, edge_t b) { return list.edges[a] < list.edges[b]; });
    return order;
  }
  std::vector<edge_t> by_dst(m);
  counting_pass(list, order, by_dst, [](const Edge& e) { return e.dst; });
  counting_pass(list, by_dst, order, [](const Edge& e) { return e.src; });
  return order;
}

}  // namespace courier::graph::detail
