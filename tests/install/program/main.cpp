// A downstream program that brings its own graph program (in_degree.sp, compiled by
// courier_add_program): registered as an algorithm with a dsl kernel in a copy of Courier's
// registry and run through the public run API on 2 ranks, in both generations, against in-degrees
// counted here.
#include <courier/algo/builtin.hpp>
#include <courier/engines/dsl.hpp>
#include <courier/graph/load.hpp>
#include <courier/harness/run.hpp>
#include <cstdio>
#include <variant>

#include "in_degree.hpp"

int main() {
  using namespace courier;
  harness::Registry registry = builtin_registry();
  harness::Algorithm a;
  a.name = "in-degree";
  a.about = "each vertex's in-degree, by a program compiled downstream";
  a.kernels["dsl"] =
      std::make_shared<engines::DslKernel>(downstream::in_degree_needs, [](dsl::rt::Graph& g, const harness::Request&) {
        dsl::rt::NodeProperty<std::int64_t> count(g);
        (g.naive() ? downstream::naive::in_degree : downstream::in_degree)(g, count);
        return harness::Output{dsl::rt::masters_as_integers(g, count), {}};
      });
  a.summarise = [](const harness::Output&, const harness::Request&, std::uint64_t) { return harness::Summary{}; };
  registry.add(std::move(a));

  const graph::Csr csr = graph::load_graph("kron:8");
  std::vector<std::uint64_t> want(csr.num_vertices(), 0);
  for (graph::vertex_t u = 0; u < csr.num_vertices(); ++u)
    for (graph::vertex_t v : csr.neighbors(u)) ++want[v];
  for (const char* generation : {"optimised", "naive"}) {
    harness::RunSpec spec{.algorithm = "in-degree", .graph = "kron:8", .engine = "dsl", .ranks = 2, .threads = 1};
    spec.options.set("generation", generation);
    const harness::RunResult result = harness::run(registry, spec);
    if (std::get<std::vector<std::uint64_t>>(result.values) != want) {
      std::printf("downstream program: wrong in-degrees (%s generation)\n", generation);
      return 1;
    }
  }
  std::puts("downstream program: ok");
  return 0;
}
