#include "sequential_engine.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "courier/core/error.hpp"
#include "courier/graph/reference.hpp"
#include "courier/graph/verify.hpp"
#include "spmv_vector.hpp"
#include "summary.hpp"

namespace courier::cli {

namespace ref = graph::reference;
using graph::vertex_t;

const std::vector<std::string>& algorithm_names() {
  static const std::vector<std::string> names{"bfs", "sssp", "cc", "pagerank", "tc", "kcore", "degree", "spmv"};
  return names;
}

vertex_t resolve_source(const graph::Csr& graph, const RunOptions& options) {
  if (options.source == graph::kNoVertex) {
    vertex_t best = 0;
    for (vertex_t v = 1; v < graph.num_vertices(); ++v)
      if (graph.degree(v) > graph.degree(best)) best = v;
    return best;
  }
  if (options.source >= graph.num_vertices())
    throw InputError(fmt::format("--source {} is not a vertex: the graph has vertices 0..{}", options.source,
                                 graph.num_vertices() == 0 ? 0 : graph.num_vertices() - 1));
  return options.source;
}

RunResult run_sequential(const std::string& algorithm, const graph::Csr& graph, const RunOptions& options) {
  RunFacts facts;
  VertexValues values;
  if (algorithm == "bfs") {
    facts.source = resolve_source(graph, options);
    values = ref::bfs(graph, facts.source).level;
  } else if (algorithm == "sssp") {
    facts.source = resolve_source(graph, options);
    ref::SsspResult sssp = ref::sssp(graph, facts.source);
    if (sssp.weight_type == graph::WeightType::u32)
      values = std::move(sssp.dist_int);
    else
      values = std::move(sssp.dist_real);
  } else if (algorithm == "cc") {
    const auto label = ref::connected_components(graph);
    values = std::vector<std::uint64_t>(label.begin(), label.end());
  } else if (algorithm == "pagerank") {
    ref::PagerankResult pr = ref::pagerank(graph, {options.damping, options.tolerance, options.max_iterations});
    facts.iterations = pr.iterations;
    facts.converged = pr.converged;
    facts.last_change = pr.last_change;
    values = std::move(pr.rank);
  } else if (algorithm == "tc") {
    ref::TriangleResult tc = ref::triangles(graph);
    facts.triangles = tc.total;
    values = std::move(tc.per_vertex);
  } else if (algorithm == "kcore") {
    const auto core = ref::kcore(graph);
    values = std::vector<std::uint64_t>(core.begin(), core.end());
  } else if (algorithm == "degree") {
    values = ref::out_degrees(graph);
  } else if (algorithm == "spmv") {
    values = ref::spmv(graph, spmv_x_vector(graph.num_vertices()));
  } else {
    throw InputError(fmt::format("unknown algorithm '{}': choose one of {}", algorithm, fmt::join(algorithm_names(), ", ")));
  }
  return summarise(algorithm, std::move(values), facts, options, graph.num_edges());
}

namespace {

// The reference's values for the algorithms without an independent checker.
std::string compare_with_reference(const std::string& algorithm, const graph::Csr& graph, const RunResult& result) {
  const auto& got = std::get<std::vector<std::uint64_t>>(result.values);
  if (algorithm == "tc") return graph::verify::equal(ref::triangles(graph).per_vertex, got, "triangles");
  if (algorithm == "kcore") {
    const auto core = ref::kcore(graph);
    return graph::verify::equal(std::vector<std::uint64_t>(core.begin(), core.end()), got, "core number");
  }
  return graph::verify::equal(ref::out_degrees(graph), got, "out-degree");
}

}  // namespace

void verify_result(const std::string& algorithm, const graph::Csr& graph, const RunOptions& options,
                   bool result_is_the_reference, RunResult& result) {
  const auto* integers = std::get_if<std::vector<std::uint64_t>>(&result.values);
  const auto* reals = std::get_if<std::vector<double>>(&result.values);
  if (algorithm == "bfs") {
    result.verifier = "independent BFS checker";
    result.mismatch = graph::verify::bfs_levels(graph, resolve_source(graph, options), *integers);
  } else if (algorithm == "sssp") {
    result.verifier = "independent SSSP checker";
    ref::SsspResult sssp;
    sssp.weight_type = graph.weight_type();
    if (integers) sssp.dist_int = *integers;
    if (reals) sssp.dist_real = *reals;
    result.mismatch = graph::verify::sssp(graph, resolve_source(graph, options), sssp);
  } else if (algorithm == "cc") {
    result.verifier = "independent components checker";
    result.mismatch = graph::verify::components(graph, *integers);
  } else if (algorithm == "pagerank") {
    // A converged result is a fixed point to within what the stopping rule allows.
    const double last_change = result.summary.value("last_change", 0.0);
    result.verifier = "PageRank fixed-point check";
    result.mismatch = graph::verify::pagerank(graph, *reals, options.damping, std::max(1e-6, 2 * last_change));
  } else if (algorithm == "spmv" && !result_is_the_reference) {
    // Sums in another order differ in the last bits: the distance allowed grows with |y|.
    const std::vector<double> expected = ref::spmv(graph, spmv_x_vector(graph.num_vertices()));
    double norm = 0;
    for (double y : expected) norm += std::abs(y);
    result.verifier = "the sequential reference, L1 distance within 1e-9 of |y|";
    result.mismatch = graph::verify::close(expected, *reals, 1e-9 * std::max(1.0, norm), "y = A x");
  } else if (result_is_the_reference) {
    result.verifier = "none: the seq engine is the reference for " + algorithm;
  } else {
    result.verifier = "the sequential reference";
    result.mismatch = compare_with_reference(algorithm, graph, result);
  }
}

}  // namespace courier::cli
