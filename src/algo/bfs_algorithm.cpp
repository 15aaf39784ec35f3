// bfs: levels from a source. Vertex engine: direction-optimizing (bfs.cpp); checked by an
// independent checker in the manner of Graph500.
#include "courier/algo/algorithms.hpp"
#include "courier/algo/bfs.hpp"
#include "courier/dsl/programs/bfs.hpp"
#include "courier/engines/dsl.hpp"
#include "courier/engines/la.hpp"
#include "courier/engines/vertex.hpp"
#include "courier/graph/reference/bfs.hpp"
#include "courier/graph/verify.hpp"
#include "describe.hpp"
#include "la_programs.hpp"

namespace courier::algo {

harness::Algorithm bfs_algorithm() {
  harness::Algorithm a;
  a.name = "bfs";
  a.about = "breadth-first search: each vertex's level from a source";
  a.needs = {.source = true, .in_edges = true};  // the pull half of direction optimization
  a.options = {
      describe::source_option(),
      {.name = "direction",
       .help = "each round pushes from the frontier, pulls into unvisited vertices, or chooses by Beamer's rule",
       .fallback = "auto",
       .choices = {"auto", "push", "pull"},
       .engines = {"vertex"}}};
  a.reference = [](const graph::Csr& g, const harness::Request& r) {
    return harness::Output{graph::reference::bfs(g, r.source).level, {}};
  };
  a.verify = [](const graph::Csr& g, const harness::Request& r, const harness::Output& out, bool) {
    return harness::Verdict{"independent BFS checker", graph::verify::bfs_levels(g, r.source, describe::integers(out))};
  };
  a.summarise = [](const harness::Output& out, const harness::Request& r, std::uint64_t) {
    return describe::distances(out.values, r.source, true);
  };
  a.kernels["vertex"] = std::make_shared<engines::VertexKernel>([](vertex::Engine& e, const harness::Request& r) {
    return harness::Output{
        bfs_levels(e, {.source = r.source, .direction = parse_direction(r.options.text("direction"))}), {}};
  });
  auto la = std::make_shared<engines::LaKernel>();
  la->run = [](const engines::LaContext& context, const harness::Request& r) {
    return engines::run_program(context, la_programs::Bfs{r.source}, [](const auto&) { return std::any(); });
  };
  la->pulls = true;  // direction switching: tiles kept by rows too
  a.kernels["la"] = std::move(la);
  a.kernels["dsl"] =
      std::make_shared<engines::DslKernel>(dsl::programs::bfs_needs, [](dsl::rt::Graph& g, const harness::Request& r) {
        dsl::rt::NodeProperty<std::int32_t> level(g);
        (g.naive() ? dsl::programs::naive::bfs : dsl::programs::bfs)(g, level, r.source);
        return harness::Output{dsl::rt::masters_as_integers(g, level), {}};
      });
  return a;
}

}  // namespace courier::algo
