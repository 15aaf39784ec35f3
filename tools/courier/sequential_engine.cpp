#include "sequential_engine.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "courier/core/error.hpp"
#include "courier/graph/reference.hpp"
#include "courier/graph/verify.hpp"

namespace courier::cli {

namespace ref = graph::reference;
using graph::vertex_t;

namespace {

vertex_t source_of(const graph::Csr& graph, const RunOptions& options) {
  if (options.source == graph::kNoVertex) return default_source(graph);
  if (options.source >= graph.num_vertices())
    throw InputError(fmt::format("--source {} is not a vertex: the graph has vertices 0..{}", options.source,
                                 graph.num_vertices() == 0 ? 0 : graph.num_vertices() - 1));
  return options.source;
}

RunResult summarise_distances(std::vector<std::uint64_t> dist, vertex_t source, const char* what) {
  RunResult result;
  std::uint64_t reached = 0, sum = 0, largest = 0;
  for (std::uint64_t d : dist) {
    if (d == ref::kUnreached) continue;
    ++reached;
    sum += d;
    largest = std::max(largest, d);
  }
  result.lines = {{"Source", fmt::format("{}", source)}, {"Reached", fmt::format("{} vertices", reached)}};
  result.summary = {{"source", source}, {"reached", reached}};
  if (std::string_view(what) == "level") {
    result.lines.emplace_back("Levels", fmt::format("{}", reached == 0 ? 0 : largest + 1));
    result.summary["levels"] = reached == 0 ? 0 : largest + 1;
  } else {
    result.lines.emplace_back("Distances", fmt::format("sum {}, largest {}", sum, largest));
    result.summary["distance_sum"] = sum;
    result.summary["distance_max"] = largest;
  }
  result.values = std::move(dist);
  return result;
}

RunResult run_bfs(const graph::Csr& graph, const RunOptions& options) {
  const vertex_t source = source_of(graph, options);
  return summarise_distances(ref::bfs(graph, source).level, source, "level");
}

RunResult run_sssp(const graph::Csr& graph, const RunOptions& options) {
  const vertex_t source = source_of(graph, options);
  ref::SsspResult sssp = ref::sssp(graph, source);
  if (sssp.weight_type == graph::WeightType::u32) return summarise_distances(std::move(sssp.dist_int), source, "distance");
  RunResult result;
  std::uint64_t reached = 0;
  double sum = 0, largest = 0;
  for (double d : sssp.dist_real) {
    if (d == std::numeric_limits<double>::infinity()) continue;
    ++reached;
    sum += d;
    largest = std::max(largest, d);
  }
  result.lines = {{"Source", fmt::format("{}", source)},
                  {"Reached", fmt::format("{} vertices", reached)},
                  {"Distances", fmt::format("sum {}, largest {}", sum, largest)}};
  result.summary = {{"source", source}, {"reached", reached}, {"distance_sum", sum}, {"distance_max", largest}};
  result.values = std::move(sssp.dist_real);
  return result;
}

RunResult run_cc(const graph::Csr& graph, const RunOptions&) {
  const std::vector<vertex_t> label = ref::connected_components(graph);
  std::vector<vertex_t> size(label.size(), 0);
  for (vertex_t l : label) ++size[l];
  const vertex_t components = static_cast<vertex_t>(std::count_if(size.begin(), size.end(), [](vertex_t s) { return s > 0; }));
  const vertex_t largest = size.empty() ? 0 : *std::max_element(size.begin(), size.end());
  RunResult result;
  result.lines = {{"Components", fmt::format("{}", components)}, {"Largest", fmt::format("{} vertices", largest)}};
  result.summary = {{"components", components}, {"largest", largest}};
  result.values = std::vector<std::uint64_t>(label.begin(), label.end());
  return result;
}

RunResult run_pagerank(const graph::Csr& graph, const RunOptions& options) {
  ref::PagerankOptions pr_options;
  pr_options.damping = options.damping;
  pr_options.tolerance = options.tolerance;
  pr_options.max_iterations = options.max_iterations;
  ref::PagerankResult pr = ref::pagerank(graph, pr_options);
  std::vector<vertex_t> order(pr.rank.size());
  std::iota(order.begin(), order.end(), vertex_t{0});
  const std::size_t shown = std::min<std::size_t>(10, order.size());
  std::partial_sort(order.begin(), order.begin() + shown, order.end(),
                    [&](vertex_t a, vertex_t b) { return pr.rank[a] > pr.rank[b] || (pr.rank[a] == pr.rank[b] && a < b); });
  RunResult result;
  result.lines.emplace_back("Iterations", fmt::format("{} ({}: L1 change {:.3g}, tolerance {:.3g}, at most {})", pr.iterations,
                                                      pr.converged ? "converged" : "not converged", pr.last_change,
                                                      options.tolerance, options.max_iterations));
  nlohmann::json top = nlohmann::json::array();
  for (std::size_t i = 0; i < shown; ++i) {
    result.lines.emplace_back(fmt::format("Top {:2}", i + 1), fmt::format("vertex {} rank {:.6e}", order[i], pr.rank[order[i]]));
    top.push_back({{"vertex", order[i]}, {"rank", pr.rank[order[i]]}});
  }
  result.summary = {{"iterations", pr.iterations}, {"converged", pr.converged}, {"last_change", pr.last_change},
                    {"tolerance", options.tolerance}, {"max_iterations", options.max_iterations}, {"top", top}};
  result.values = std::move(pr.rank);
  return result;
}

RunResult run_tc(const graph::Csr& graph, const RunOptions&) {
  ref::TriangleResult tc = ref::triangles(graph);
  RunResult result;
  result.lines = {{"Triangles", fmt::format("{}", tc.total)}};
  result.summary = {{"triangles", tc.total}};
  result.values = std::move(tc.per_vertex);
  return result;
}

RunResult run_kcore(const graph::Csr& graph, const RunOptions&) {
  const std::vector<std::uint32_t> core = ref::kcore(graph);
  const std::uint32_t degeneracy = core.empty() ? 0 : *std::max_element(core.begin(), core.end());
  const auto in_max_core = std::count(core.begin(), core.end(), degeneracy);
  RunResult result;
  result.lines = {{"Largest core", fmt::format("{} ({} vertices)", degeneracy, in_max_core)}};
  result.summary = {{"degeneracy", degeneracy}, {"max_core_vertices", in_max_core}};
  result.values = std::vector<std::uint64_t>(core.begin(), core.end());
  return result;
}

RunResult run_degree(const graph::Csr& graph, const RunOptions&) {
  std::vector<std::uint64_t> degree = ref::out_degrees(graph);
  const std::uint64_t largest = degree.empty() ? 0 : *std::max_element(degree.begin(), degree.end());
  const double mean = degree.empty() ? 0 : static_cast<double>(graph.num_edges()) / static_cast<double>(degree.size());
  RunResult result;
  result.lines = {{"Out-degree", fmt::format("max {}, mean {:.3f}", largest, mean)}};
  result.summary = {{"max_degree", largest}, {"mean_degree", mean}};
  result.values = std::move(degree);
  return result;
}

using Runner = RunResult (*)(const graph::Csr&, const RunOptions&);
struct Algorithm {
  const char* name;
  Runner run;
};
constexpr Algorithm kAlgorithms[] = {{"bfs", run_bfs},     {"sssp", run_sssp}, {"cc", run_cc},
                                     {"pagerank", run_pagerank}, {"tc", run_tc}, {"kcore", run_kcore},
                                     {"degree", run_degree}};

}  // namespace

const std::vector<std::string>& sequential_algorithms() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (const Algorithm& a : kAlgorithms) list.emplace_back(a.name);
    return list;
  }();
  return names;
}

vertex_t default_source(const graph::Csr& graph) {
  vertex_t best = 0;
  for (vertex_t v = 1; v < graph.num_vertices(); ++v)
    if (graph.degree(v) > graph.degree(best)) best = v;
  return best;
}

RunResult run_sequential(const std::string& algorithm, const graph::Csr& graph, const RunOptions& options) {
  for (const Algorithm& a : kAlgorithms)
    if (algorithm == a.name) return a.run(graph, options);
  throw InputError(fmt::format("unknown algorithm '{}': choose one of {}", algorithm,
                               fmt::join(sequential_algorithms(), ", ")));
}

void verify_sequential(const std::string& algorithm, const graph::Csr& graph, const RunOptions& options,
                       RunResult& result) {
  const auto* integers = std::get_if<std::vector<std::uint64_t>>(&result.values);
  const auto* reals = std::get_if<std::vector<double>>(&result.values);
  if (algorithm == "bfs") {
    result.verifier = "independent BFS checker";
    result.mismatch = graph::verify::bfs_levels(graph, source_of(graph, options), *integers);
  } else if (algorithm == "sssp") {
    result.verifier = "independent SSSP checker";
    ref::SsspResult sssp;
    sssp.weight_type = graph.weight_type();
    if (integers) sssp.dist_int = *integers;
    if (reals) sssp.dist_real = *reals;
    result.mismatch = graph::verify::sssp(graph, source_of(graph, options), sssp);
  } else if (algorithm == "cc") {
    result.verifier = "independent components checker";
    result.mismatch = graph::verify::components(graph, *integers);
  } else if (algorithm == "pagerank") {
    // A converged result is a fixed point to within what the stopping rule allows.
    const double last_change = result.summary.value("last_change", 0.0);
    result.verifier = "PageRank fixed-point check";
    result.mismatch = graph::verify::pagerank(graph, *reals, options.damping, std::max(1e-6, 2 * last_change));
  } else if (algorithm == "degree") {
    result.verifier = "row lengths of the CSR";
    std::vector<std::uint64_t> expected(graph.num_vertices());
    for (vertex_t v = 0; v < graph.num_vertices(); ++v) expected[v] = graph.offsets()[v + 1] - graph.offsets()[v];
    result.mismatch = graph::verify::equal(expected, *integers, "out-degree");
  } else {
    // tc and kcore: the sequential reference is the only oracle; the seq engine IS it.
    result.verifier = "none (the seq engine is the reference for this algorithm)";
  }
}

}  // namespace courier::cli
