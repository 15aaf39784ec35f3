// sssp: shortest-path distances from a source. Vertex engine: delta-stepping (sssp.cpp) on
// uint32 weights; checked by an independent checker (every edge relaxed, every distance witnessed).
#include "courier/algo/algorithms.hpp"
#include "courier/algo/sssp.hpp"
#include "courier/dsl/programs/sssp.hpp"
#include "courier/engines/dsl.hpp"
#include "courier/engines/la.hpp"
#include "courier/engines/vertex.hpp"
#include "courier/graph/reference/sssp.hpp"
#include "courier/graph/verify.hpp"
#include "describe.hpp"
#include "la_programs.hpp"

namespace courier::algo {

harness::Algorithm sssp_algorithm() {
  harness::Algorithm a;
  a.name = "sssp";
  a.about = "single-source shortest paths: each vertex's distance from a source";
  // The vertex engine's pull rounds read in-edges; pushing every round (the default) needs none.
  a.needs = {.source = true, .in_edges = true, .in_edges_if = [](const harness::Options& options) {
               return options.text("direction") != "push";
             }};
  a.options = {describe::source_option(),
               {.name = "delta",
                .help = "the delta-stepping bucket width (0: Bellman-Ford)",
                .fallback = "32",
                .check = harness::whole_number("delta"),
                .engines = {"vertex", "la"}},
               {.name = "direction",
                .help = "each round's vertices relax their out-edges (push, the default: the fastest measured here), "
                        "every vertex takes the best offer over its in-edges (pull), or Gemini's rule chooses by the "
                        "round's vertices and edges (auto)",
                .fallback = "push",
                .choices = {"auto", "push", "pull"},
                .engines = {"vertex"}}};
  a.reference = [](const graph::Csr& g, const harness::Request& r) {
    graph::reference::SsspResult sssp = graph::reference::sssp(g, r.source);
    if (sssp.weight_type == graph::WeightType::u32) return harness::Output{std::move(sssp.dist_int), {}};
    return harness::Output{std::move(sssp.dist_real), {}};
  };
  a.verify = [](const graph::Csr& g, const harness::Request& r, const harness::Output& out, bool) {
    graph::reference::SsspResult sssp;
    sssp.weight_type = g.weight_type();
    if (const auto* integers = std::get_if<std::vector<std::uint64_t>>(&out.values)) sssp.dist_int = *integers;
    if (const auto* reals = std::get_if<std::vector<double>>(&out.values)) sssp.dist_real = *reals;
    return harness::Verdict{"independent SSSP checker", graph::verify::sssp(g, r.source, sssp)};
  };
  a.summarise = [](const harness::Output& out, const harness::Request& r, std::uint64_t) {
    return describe::distances(out.values, r.source, false);
  };
  a.kernels["vertex"] = std::make_shared<engines::VertexKernel>(
      [](vertex::Engine& e, const harness::Request& r) {
        return harness::Output{sssp(e, {.source = r.source,
                                        .delta = r.options.count("delta"),
                                        .direction = parse_direction(r.options.text("direction"))}),
                               {}};
      },
      /*integer_weights=*/true);
  auto la = std::make_shared<engines::LaKernel>();
  la->run = [](const engines::LaContext& context, const harness::Request& r) {
    return engines::run_program(context, la_programs::Sssp{{}, r.source, r.options.count("delta")},
                                [](const auto&) { return std::any(); });
  };
  la->weights = engines::LaKernel::Weights::integers;
  a.kernels["la"] = std::move(la);
  a.kernels["dsl"] = std::make_shared<engines::DslKernel>(
      dsl::programs::sssp_needs,
      [](dsl::rt::Graph& g, const harness::Request& r) {
        dsl::rt::NodeProperty<std::int32_t> dist(g);
        dsl::rt::EdgeProperty<std::int32_t> weight = dsl::rt::EdgeProperty<std::int32_t>::weights(g);
        (g.naive() ? dsl::programs::naive::sssp : dsl::programs::sssp)(g, dist, weight, r.source);
        return harness::Output{dsl::rt::masters_as_integers(g, dist), {}};
      },
      /*integer_weights=*/true);
  return a;
}

}  // namespace courier::algo
