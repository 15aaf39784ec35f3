#include <algorithm>

#include "courier/graph/transform.hpp"

namespace courier::graph {

Csr simple_undirected(const Csr& csr) {
  const vertex_t n = csr.num_vertices();
  if (n == 0) return Csr();
  // Row x of the result merges x's out-row with its in-row (the transpose's, sorted already).
  // The structure alone is borrowed (csr outlives the call), so no weights are moved around.
  const Csr structure(Buffer<edge_t>(nullptr, csr.offsets().data(), csr.offsets().size()),
                      Buffer<vertex_t>(nullptr, csr.targets().data(), csr.targets().size()));
  const Csr in = transpose(structure);
  std::vector<edge_t> offsets(n + 1, 0);
  std::vector<vertex_t> targets;
  targets.reserve(2 * csr.num_edges());
  std::vector<vertex_t> sorted_out;
  for (vertex_t x = 0; x < n; ++x) {
    std::span<const vertex_t> out = csr.neighbors(x);
    if (!std::is_sorted(out.begin(), out.end())) {
      sorted_out.assign(out.begin(), out.end());
      std::sort(sorted_out.begin(), sorted_out.end());
      out = sorted_out;
    }
    const auto in_row = in.neighbors(x);
    auto a = out.begin(), b = in_row.begin();
    while (a != out.end() || b != in_row.end()) {
      vertex_t y;
      if (b == in_row.end() || (a != out.end() && *a <= *b))
        y = *a++;
      else
        y = *b++;
      if (y != x && (targets.size() == offsets[x] || targets.back() != y)) targets.push_back(y);
    }
    offsets[x + 1] = targets.size();
  }
  targets.shrink_to_fit();
  return Csr(Buffer<edge_t>(std::move(offsets)), Buffer<vertex_t>(std::move(targets)));
}

}  // namespace courier::graph
