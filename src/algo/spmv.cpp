// spmv on the vertex engine: one pass over the out-edges and one reduce (Sum) of the mirrors' sums.
#include "courier/algo/spmv.hpp"

#include <variant>

#include "courier/sync/reduction.hpp"

namespace courier::algo {

using namespace courier::vertex;

namespace {

// The weight of out-edge e: from the rows' weights, or 1.
struct Unit {
  double operator[](edge_t) const { return 1.0; }
};

template <class Weights>
std::vector<double> row_products(Engine& engine, const std::vector<double>& x, const Weights& weight) {
  const dist::LocalGraph& g = engine.graph();
  Field<double, sync::Sum> y(g, 0.0, {At::source, At::master});
  engine.for_each_vertex(g.proxies(), [&](local_t v) {
    const edge_t begin = g.out().offsets[v];
    const auto targets = g.out().neighbors(v);
    if (targets.empty()) return;
    double sum = 0;
    for (std::size_t i = 0; i < targets.size(); ++i) sum += static_cast<double>(weight[begin + i]) * x[targets[i]];
    if (v < g.masters())
      y[v] = sum;
    else if (sum != 0)
      y.set_exclusive(v, sum);  // only mirrors' sums travel
  });
  engine.sync(y);
  return {y.values().begin(), y.values().begin() + g.masters()};
}

}  // namespace

std::vector<double> spmv(Engine& engine, const std::function<double(vertex_t)>& x_of) {
  const dist::LocalGraph& g = engine.graph();
  std::vector<double> x(g.proxies());
  engine.for_each_vertex(g.proxies(), [&](local_t v) { x[v] = x_of(g.global_id(v)); });
  return std::visit(
      [&](const auto& weights) {
        using W = std::decay_t<decltype(weights)>;
        if constexpr (std::is_same_v<W, std::monostate>)
          return row_products(engine, x, Unit{});
        else
          return row_products(engine, x, weights);
      },
      g.out().weights);
}

}  // namespace courier::algo
