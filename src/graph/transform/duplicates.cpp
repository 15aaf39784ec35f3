#include <algorithm>
#include <cstdint>
#include <numeric>

#include "courier/core/parallel.hpp"
#include "courier/graph/transform.hpp"
#include "courier/graph/weight_key.hpp"
#include "edge_list_support.hpp"

namespace courier::graph {

namespace {

// Weights travel with their edges as keys (weight_key.hpp), so sorting a row by (dst, key) puts
// the smallest weight of each pair first and no second random gather is needed.
struct Keyed {
  vertex_t src;
  vertex_t dst;
  std::uint32_t key;
  friend bool operator<(const Keyed& a, const Keyed& b) {
    if (a.src != b.src) return a.src < b.src;
    if (a.dst != b.dst) return a.dst < b.dst;
    return a.key < b.key;
  }
};

struct RowEntry {
  vertex_t dst;
  std::uint32_t key;
  friend bool operator<(const RowEntry& a, const RowEntry& b) {
    return a.dst < b.dst || (a.dst == b.dst && a.key < b.key);
  }
};

// Calls emit(src, dst, key) for every edge in (src, dst, key) order. Usually a counting pass by
// source and then each row sorted on its own (rows are short and sit in cache); a huge id range
// with few edges takes a comparison sort, as counting arrays over the ids would dwarf the edges.
template <class W, class Emit>
void visit_sorted(const EdgeList& list, const std::vector<W>* weights, Emit&& emit) {
  const edge_t m = list.edges.size();
  const vertex_t n = list.num_vertices;
  auto key_of = [&](edge_t i) { return weights ? weight_key((*weights)[i]) : std::uint32_t{0}; };
  if (n > 4 * m + 4096) {
    std::vector<Keyed> all(m);
    for (edge_t i = 0; i < m; ++i) all[i] = {list.edges[i].src, list.edges[i].dst, key_of(i)};
    std::sort(all.begin(), all.end());
    for (const Keyed& e : all) emit(e.src, e.dst, e.key);
    return;
  }

  std::vector<edge_t> start(n + 1, 0);
  for (const Edge& e : list.edges) ++start[e.src + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<RowEntry> entries(m);
  {
    std::vector<edge_t> next(start.begin(), start.end() - 1);
    for (edge_t i = 0; i < m; ++i) entries[next[list.edges[i].src]++] = {list.edges[i].dst, key_of(i)};
  }
  parallel_for(n, threads_for(m), [&](std::uint64_t begin, std::uint64_t end, unsigned) {
    for (vertex_t v = begin; v < end; ++v)
      std::sort(entries.begin() + start[v], entries.begin() + start[v + 1]);
  });
  for (vertex_t v = 0; v < n; ++v)
    for (edge_t k = start[v]; k < start[v + 1]; ++k) emit(v, entries[k].dst, entries[k].key);
}

template <class W>
EdgeList unique_edges(const EdgeList& list, const std::vector<W>* weights) {
  EdgeList out;
  out.num_vertices = list.num_vertices;
  std::vector<W> kept_weights;
  // Equal pairs arrive together, the smallest weight first: keep the first of each run.
  visit_sorted(list, weights, [&](vertex_t src, vertex_t dst, std::uint32_t key) {
    if (!out.edges.empty() && out.edges.back() == Edge{src, dst}) return;
    out.edges.push_back({src, dst});
    if (weights) kept_weights.push_back(weight_of_key<W>(key));
  });
  if (weights) out.weights = std::move(kept_weights);
  return out;
}

}  // namespace

EdgeList remove_duplicate_edges(const EdgeList& list) {
  detail::check_edge_list(list, "remove_duplicate_edges");
  if (const auto* w = std::get_if<std::vector<std::uint32_t>>(&list.weights)) return unique_edges(list, w);
  if (const auto* w = std::get_if<std::vector<float>>(&list.weights)) return unique_edges(list, w);
  return unique_edges<std::uint32_t>(list, nullptr);
}

}  // namespace courier::graph
