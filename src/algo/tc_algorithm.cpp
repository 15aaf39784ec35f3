// tc: triangle counting on the undirected simple graph, per vertex and in all (tc.cpp);
// checked against the sequential reference.
#include <fmt/format.h>

#include "courier/algo/algorithms.hpp"
#include "courier/algo/tc.hpp"
#include "courier/dsl/programs/tc.hpp"
#include "courier/engines/dsl.hpp"
#include "courier/engines/vertex.hpp"
#include "courier/graph/reference/triangles.hpp"
#include "courier/graph/verify.hpp"
#include "describe.hpp"

namespace courier::algo {

namespace {

struct Total {
  std::uint64_t triangles = 0;
};

}  // namespace

harness::Algorithm tc_algorithm() {
  harness::Algorithm a;
  a.name = "tc";
  a.aliases = {"triangles"};
  a.about = "triangle counting: the triangles each vertex is a corner of, and in all";
  a.needs = {.simple_undirected = true};
  a.reference = [](const graph::Csr& g, const harness::Request&) {
    graph::reference::TriangleResult counted = graph::reference::triangles(g);
    return harness::Output{std::move(counted.per_vertex), Total{counted.total}};
  };
  a.verify = [](const graph::Csr& g, const harness::Request&, const harness::Output& out, bool is_reference) {
    if (is_reference) return describe::by_itself("tc");
    return harness::Verdict{"the sequential reference", graph::verify::equal(graph::reference::triangles(g).per_vertex,
                                                                             describe::integers(out), "triangles")};
  };
  a.summarise = [](const harness::Output& out, const harness::Request&, std::uint64_t) {
    const std::uint64_t total = std::any_cast<const Total&>(out.facts).triangles;
    return harness::Summary{{{"Triangles", fmt::format("{}", total)}}, {{"triangles", total}}};
  };
  a.kernels["vertex"] = std::make_shared<engines::VertexKernel>([](vertex::Engine& e, const harness::Request&) {
    TriangleResult counted = tc(e);
    return harness::Output{std::move(counted.per_vertex), Total{counted.total}};
  });
  a.kernels["dsl"] =
      std::make_shared<engines::DslKernel>(dsl::programs::tc_needs, [](dsl::rt::Graph& g, const harness::Request&) {
        dsl::rt::NodeProperty<std::int64_t> corners(g);
        const auto total = (g.naive() ? dsl::programs::naive::tc : dsl::programs::tc)(g, corners);
        return harness::Output{dsl::rt::masters_as_integers(g, corners), Total{static_cast<std::uint64_t>(total)}};
      });
  return a;
}

}  // namespace courier::algo
