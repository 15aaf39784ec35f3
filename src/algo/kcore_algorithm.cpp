// kcore: each vertex's core number on the undirected simple graph, by peeling (kcore.cpp);
// checked against the sequential reference.
#include <algorithm>

#include <fmt/format.h>

#include "courier/algo/algorithms.hpp"
#include "courier/algo/kcore.hpp"
#include "courier/engines/vertex.hpp"
#include "courier/graph/reference/kcore.hpp"
#include "courier/graph/verify.hpp"
#include "describe.hpp"

namespace courier::algo {

harness::Algorithm kcore_algorithm() {
  harness::Algorithm a;
  a.name = "kcore";
  a.about = "k-core decomposition: each vertex's core number";
  a.needs = {.simple_undirected = true};
  a.reference = [](const graph::Csr& g, const harness::Request&) {
    return harness::Output{describe::widen(graph::reference::kcore(g)), {}};
  };
  a.verify = [](const graph::Csr& g, const harness::Request&, const harness::Output& out, bool is_reference) {
    if (is_reference) return describe::by_itself("kcore");
    return harness::Verdict{"the sequential reference",
                            graph::verify::equal(describe::widen(graph::reference::kcore(g)), describe::integers(out),
                                                 "core number")};
  };
  a.summarise = [](const harness::Output& out, const harness::Request&, std::uint64_t) {
    const auto& core = describe::integers(out);
    const std::uint64_t degeneracy = core.empty() ? 0 : *std::max_element(core.begin(), core.end());
    const auto in_max_core = std::count(core.begin(), core.end(), degeneracy);
    return harness::Summary{{{"Largest core", fmt::format("{} ({} vertices)", degeneracy, in_max_core)}},
                            {{"degeneracy", degeneracy}, {"max_core_vertices", in_max_core}}};
  };
  a.kernels["vertex"] = std::make_shared<engines::VertexKernel>([](vertex::Engine& e, const harness::Request&) {
    return harness::Output{describe::widen(kcore(e)), {}};
  });
  return a;
}

}  // namespace courier::algo
