#include "courier/graph/csr.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <type_traits>

#include "courier/core/error.hpp"
#include "courier/core/memory.hpp"

namespace courier::graph {

const char* to_string(WeightType type) {
  switch (type) {
    case WeightType::none: return "none";
    case WeightType::u32: return "uint32";
    case WeightType::f32: return "float";
  }
  return "?";
}

namespace {
template <class Variant>
WeightType weight_type_of(const Variant& weights) {
  return static_cast<WeightType>(weights.index());  // the alternatives are in WeightType's order
}
}  // namespace

WeightType EdgeList::weight_type() const { return weight_type_of(weights); }
WeightType Csr::weight_type() const { return weight_type_of(weights_); }

Csr::Csr(Buffer<edge_t> offsets, Buffer<vertex_t> targets, CsrWeights weights)
    : offsets_(std::move(offsets)), targets_(std::move(targets)), weights_(std::move(weights)) {
  const edge_t edges = offsets_.empty() ? 0 : offsets_[offsets_.size() - 1];
  if ((offsets_.empty() && !targets_.empty()) || (!offsets_.empty() && offsets_[0] != 0) ||
      edges != targets_.size())
    throw Error(fmt::format("Csr: offsets end at {} but there are {} targets", edges, targets_.size()));
  std::visit(
      [&](const auto& w) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(w)>, std::monostate>)
          if (w.size() != targets_.size())
            throw Error(fmt::format("Csr: {} weights for {} edges", w.size(), targets_.size()));
      },
      weights_);
}

template <class W>
std::span<const W> Csr::weights_as() const {
  if (const auto* w = std::get_if<Buffer<W>>(&weights_)) return w->span();
  throw Error(fmt::format("Csr: weights are {}, not {}", to_string(weight_type()),
                          std::is_same_v<W, float> ? "float" : "uint32"));
}
template std::span<const std::uint32_t> Csr::weights_as<std::uint32_t>() const;
template std::span<const float> Csr::weights_as<float>() const;

Csr build_csr(const EdgeList& list) {
  const vertex_t n = list.num_vertices;
  const auto& edges = list.edges;
  check_memory(fmt::format("a graph of {} vertices (ids up to {}) and {} edges", n, n == 0 ? 0 : n - 1, edges.size()),
               (n + 1) * sizeof(edge_t) + edges.size() * (sizeof(vertex_t) + sizeof(float)));
  std::vector<edge_t> offsets(n + 1, 0);
  for (const Edge& e : edges) {
    if (e.src >= n || e.dst >= n)
      throw Error(fmt::format("build_csr: edge {} -> {} outside {} vertices", e.src, e.dst, n));
    ++offsets[e.src + 1];
  }
  std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());

  // Counting sort by source keeps input order within a row; then sort each row by target.
  std::vector<edge_t> order(edges.size());
  {
    std::vector<edge_t> next(offsets.begin(), offsets.end() - 1);
    for (edge_t i = 0; i < edges.size(); ++i) order[next[edges[i].src]++] = i;
  }
  for (vertex_t v = 0; v < n; ++v)
    std::stable_sort(order.begin() + offsets[v], order.begin() + offsets[v + 1],
                     [&](edge_t a, edge_t b) { return edges[a].dst < edges[b].dst; });

  std::vector<vertex_t> targets(edges.size());
  for (edge_t i = 0; i < order.size(); ++i) targets[i] = edges[order[i]].dst;
  CsrWeights weights = std::visit(
      [&](const auto& w) -> CsrWeights {
        using V = std::decay_t<decltype(w)>;
        if constexpr (std::is_same_v<V, std::monostate>) {
          return std::monostate{};
        } else {
          V sorted(w.size());
          for (edge_t i = 0; i < order.size(); ++i) sorted[i] = w[order[i]];
          return Buffer<typename V::value_type>(std::move(sorted));
        }
      },
      list.weights);
  if (n == 0) offsets.clear();
  return Csr(Buffer<edge_t>(std::move(offsets)), Buffer<vertex_t>(std::move(targets)), std::move(weights));
}

EdgeList to_edge_list(const Csr& csr) {
  EdgeList list;
  list.num_vertices = csr.num_vertices();
  list.edges.reserve(csr.num_edges());
  for (vertex_t v = 0; v < csr.num_vertices(); ++v)
    for (vertex_t u : csr.neighbors(v)) list.edges.push_back({v, u});
  std::visit(
      [&](const auto& w) {
        using V = std::decay_t<decltype(w)>;
        if constexpr (!std::is_same_v<V, std::monostate>)
          list.weights = std::vector<typename V::value_type>(w.begin(), w.end());
      },
      csr.weights());
  return list;
}

}  // namespace courier::graph
