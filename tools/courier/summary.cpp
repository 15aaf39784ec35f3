#include "summary.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "courier/graph/reference.hpp"

namespace courier::cli {

namespace ref = graph::reference;
using graph::vertex_t;

namespace {

void distances(RunResult& result, const RunFacts& facts, bool levels) {
  std::uint64_t reached = 0;
  std::visit(
      [&](const auto& dist) {
        using T = typename std::decay_t<decltype(dist)>::value_type;
        const T unreached = std::is_same_v<T, double> ? std::numeric_limits<T>::infinity() : T(ref::kUnreached);
        T sum = 0, largest = 0;
        for (T d : dist) {
          if (d == unreached) continue;
          ++reached;
          sum += d;
          largest = std::max(largest, d);
        }
        result.lines = {{"Source", fmt::format("{}", facts.source)}, {"Reached", fmt::format("{} vertices", reached)}};
        result.summary = {{"source", facts.source}, {"reached", reached}};
        if (levels) {
          const T count = reached == 0 ? 0 : largest + 1;
          result.lines.emplace_back("Levels", fmt::format("{}", count));
          result.summary["levels"] = count;
        } else {
          result.lines.emplace_back("Distances", fmt::format("sum {}, largest {}", sum, largest));
          result.summary["distance_sum"] = sum;
          result.summary["distance_max"] = largest;
        }
      },
      result.values);
}

void components(RunResult& result) {
  const auto& label = std::get<std::vector<std::uint64_t>>(result.values);
  std::vector<vertex_t> size(label.size(), 0);
  for (auto l : label) ++size[l];
  const auto count = std::count_if(size.begin(), size.end(), [](vertex_t s) { return s > 0; });
  const vertex_t largest = size.empty() ? 0 : *std::max_element(size.begin(), size.end());
  result.lines = {{"Components", fmt::format("{}", count)}, {"Largest", fmt::format("{} vertices", largest)}};
  result.summary = {{"components", count}, {"largest", largest}};
}

void pagerank(RunResult& result, const RunFacts& facts, const RunOptions& options) {
  const auto& rank = std::get<std::vector<double>>(result.values);
  std::vector<vertex_t> order(rank.size());
  std::iota(order.begin(), order.end(), vertex_t{0});
  const std::size_t shown = std::min<std::size_t>(10, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown), order.end(),
                    [&](vertex_t a, vertex_t b) { return rank[a] > rank[b] || (rank[a] == rank[b] && a < b); });
  result.lines.emplace_back("Iterations",
                            fmt::format("{} ({}: L1 change {:.3g}, tolerance {:.3g}, at most {})", facts.iterations,
                                        facts.converged ? "converged" : "not converged", facts.last_change,
                                        options.tolerance, options.max_iterations));
  nlohmann::json top = nlohmann::json::array();
  for (std::size_t i = 0; i < shown; ++i) {
    result.lines.emplace_back(fmt::format("Top {:2}", i + 1), fmt::format("vertex {} rank {:.6e}", order[i], rank[order[i]]));
    top.push_back({{"vertex", order[i]}, {"rank", rank[order[i]]}});
  }
  result.summary = {{"iterations", facts.iterations},  {"converged", facts.converged},
                    {"last_change", facts.last_change}, {"tolerance", options.tolerance},
                    {"max_iterations", options.max_iterations}, {"top", top}};
}

void cores(RunResult& result) {
  const auto& core = std::get<std::vector<std::uint64_t>>(result.values);
  const std::uint64_t degeneracy = core.empty() ? 0 : *std::max_element(core.begin(), core.end());
  const auto in_max_core = std::count(core.begin(), core.end(), degeneracy);
  result.lines = {{"Largest core", fmt::format("{} ({} vertices)", degeneracy, in_max_core)}};
  result.summary = {{"degeneracy", degeneracy}, {"max_core_vertices", in_max_core}};
}

void degrees(RunResult& result, std::uint64_t edges) {
  const auto& degree = std::get<std::vector<std::uint64_t>>(result.values);
  const std::uint64_t largest = degree.empty() ? 0 : *std::max_element(degree.begin(), degree.end());
  const double mean = degree.empty() ? 0 : static_cast<double>(edges) / static_cast<double>(degree.size());
  result.lines = {{"Out-degree", fmt::format("max {}, mean {:.3f}", largest, mean)}};
  result.summary = {{"max_degree", largest}, {"mean_degree", mean}};
}

void products(RunResult& result) {
  const auto& y = std::get<std::vector<double>>(result.values);
  double sum = 0;
  vertex_t largest = 0;
  for (vertex_t v = 0; v < y.size(); ++v) {
    sum += y[v];
    if (std::abs(y[v]) > std::abs(y[largest])) largest = v;
  }
  const double largest_value = y.empty() ? 0.0 : y[largest];
  result.lines = {{"Product", "y = A x, A[u][v] = weight of u -> v (1 if none), x[v] = 1 / (v + 1)"},
                  {"Sum of y", fmt::format("{:.9g}", sum)},
                  {"Largest", fmt::format("y[{}] = {:.9g}", largest, largest_value)}};
  result.summary = {{"x", "1/(v+1)"}, {"sum", sum}, {"largest_vertex", largest}, {"largest_value", largest_value}};
}

}  // namespace

RunResult summarise(const std::string& algorithm, VertexValues values, const RunFacts& facts, const RunOptions& options,
                    std::uint64_t edges) {
  RunResult result;
  result.values = std::move(values);
  if (algorithm == "bfs" || algorithm == "sssp") {
    distances(result, facts, algorithm == "bfs");
  } else if (algorithm == "cc") {
    components(result);
  } else if (algorithm == "pagerank") {
    pagerank(result, facts, options);
  } else if (algorithm == "tc") {
    result.lines = {{"Triangles", fmt::format("{}", facts.triangles)}};
    result.summary = {{"triangles", facts.triangles}};
  } else if (algorithm == "kcore") {
    cores(result);
  } else if (algorithm == "degree") {
    degrees(result, edges);
  } else if (algorithm == "spmv") {
    products(result);
  }
  return result;
}

}  // namespace courier::cli
