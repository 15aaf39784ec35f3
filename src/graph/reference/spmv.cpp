#include "courier/graph/reference/spmv.hpp"

#include <string>

#include "courier/core/error.hpp"

namespace courier::graph::reference {

namespace {

template <class W>
void multiply(const Csr& graph, std::span<const double> x, std::span<const W> weights, std::vector<double>& y) {
  for (vertex_t u = 0; u < graph.num_vertices(); ++u) {
    const auto targets = graph.neighbors(u);
    double sum = 0;
    for (std::size_t k = 0; k < targets.size(); ++k)
      sum += (weights.empty() ? 1.0 : static_cast<double>(weights[graph.offsets()[u] + k])) * x[targets[k]];
    y[u] = sum;
  }
}

}  // namespace

std::vector<double> spmv(const Csr& graph, std::span<const double> x) {
  if (x.size() != graph.num_vertices())
    throw Error("reference::spmv: x has " + std::to_string(x.size()) + " entries for " +
                std::to_string(graph.num_vertices()) + " vertices");
  std::vector<double> y(graph.num_vertices(), 0.0);
  switch (graph.weight_type()) {
    case WeightType::u32:
      multiply(graph, x, graph.weights_as<std::uint32_t>(), y);
      break;
    case WeightType::f32:
      multiply(graph, x, graph.weights_as<float>(), y);
      break;
    case WeightType::none:
      multiply(graph, x, std::span<const float>(), y);
      break;
  }
  return y;
}

}  // namespace courier::graph::reference
