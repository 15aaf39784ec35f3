#pragma once
// `courier run spmv` computes y = A x for one fixed x, the same on every engine: x[v] = 1 / (v + 1),
// so that every column weighs differently and a product added to the wrong row shows.
#include <vector>

#include "courier/graph/types.hpp"

namespace courier::cli {

inline double spmv_x(graph::vertex_t v) { return 1.0 / static_cast<double>(v + 1); }

inline std::vector<double> spmv_x_vector(graph::vertex_t vertices) {
  std::vector<double> x(vertices);
  for (graph::vertex_t v = 0; v < vertices; ++v) x[v] = spmv_x(v);
  return x;
}

}  // namespace courier::cli
