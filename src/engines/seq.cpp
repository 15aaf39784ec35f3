#include "courier/engines/seq.hpp"

#include <fmt/format.h>

#include "courier/core/error.hpp"
#include "courier/core/timer.hpp"
#include "courier/graph/load.hpp"

namespace courier::engines {

graph::vertex_t resolve_source(const graph::Csr& graph, graph::vertex_t asked) {
  if (asked == graph::kNoVertex) {
    graph::vertex_t best = 0;
    for (graph::vertex_t v = 1; v < graph.num_vertices(); ++v)
      if (graph.degree(v) > graph.degree(best)) best = v;
    return best;
  }
  if (asked >= graph.num_vertices())
    throw InputError(fmt::format("--source {} is not a vertex: the graph has vertices 0..{}", asked,
                                 graph.num_vertices() == 0 ? 0 : graph.num_vertices() - 1));
  return asked;
}

namespace {

class SeqEngine final : public harness::Engine {
 public:
  std::string_view name() const override { return "seq"; }
  std::string_view about() const override { return "the sequential reference, on the whole graph"; }
  bool runs(const harness::Algorithm& algorithm) const override { return bool(algorithm.reference); }
  bool distributed() const override { return false; }

  harness::EngineRun run(const harness::Algorithm& algorithm, const harness::RunSpec& spec,
                         const harness::Launch&) const override {
    Timer timer;
    auto csr = std::make_shared<const graph::Csr>(graph::load_graph(spec.graph, spec.load));
    const double load_seconds = timer.lap();
    harness::EngineRun run;
    run.request.options = spec.options;
    if (algorithm.needs.source) run.request.source = resolve_source(*csr, spec.options.vertex("source"));
    run.output = algorithm.reference(*csr, run.request);
    run.run_seconds = timer.lap();
    run.vertices = csr->num_vertices();
    run.edges = csr->num_edges();
    run.phases = {{"load", "load", load_seconds}};
    run.description = "seq engine";
    run.whole_graph = std::move(csr);
    run.is_reference = true;
    return run;
  }
};

}  // namespace

std::shared_ptr<const harness::Engine> seq_engine() { return std::make_shared<SeqEngine>(); }

}  // namespace courier::engines
