#include <numeric>

#include "courier/graph/transform.hpp"

namespace courier::graph {

Csr transpose(const Csr& csr) {
  const vertex_t n = csr.num_vertices();
  if (n == 0) return Csr();
  const auto offsets = csr.offsets();
  const auto targets = csr.targets();

  std::vector<edge_t> in_offsets(n + 1, 0);
  for (vertex_t u : targets) ++in_offsets[u + 1];
  std::partial_sum(in_offsets.begin(), in_offsets.end(), in_offsets.begin());

  // Scanning sources in ascending order leaves every in-row sorted by source; `position[k]` is
  // where out-edge k lands, so its weight can follow it.
  std::vector<edge_t> next(in_offsets.begin(), in_offsets.end() - 1);
  std::vector<vertex_t> sources(targets.size());
  std::vector<edge_t> position(csr.has_weights() ? targets.size() : 0);
  for (vertex_t v = 0; v < n; ++v)
    for (edge_t k = offsets[v]; k < offsets[v + 1]; ++k) {
      const edge_t p = next[targets[k]]++;
      sources[p] = v;
      if (!position.empty()) position[k] = p;
    }

  CsrWeights weights = std::visit(
      [&](const auto& w) -> CsrWeights {
        using B = std::decay_t<decltype(w)>;
        if constexpr (std::is_same_v<B, std::monostate>) {
          return std::monostate{};
        } else {
          std::vector<typename B::value_type> moved(w.size());
          for (edge_t k = 0; k < w.size(); ++k) moved[position[k]] = w[k];
          return B(std::move(moved));
        }
      },
      csr.weights());
  return Csr(Buffer<edge_t>(std::move(in_offsets)), Buffer<vertex_t>(std::move(sources)),
             std::move(weights));
}

}  // namespace courier::graph
