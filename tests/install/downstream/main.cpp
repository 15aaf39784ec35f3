// A downstream program: builds a path graph through the installed library and checks its BFS
// levels, then runs an analysis through the public run API (harness::run), as the CLI does.
#include <cstdio>
#include <variant>

#include <courier/algo/builtin.hpp>
#include <courier/graph/csr.hpp>
#include <courier/graph/reference.hpp>
#include <courier/harness/run.hpp>

int main() {
  courier::graph::EdgeList path;
  path.num_vertices = 4;
  path.edges = {{0, 1}, {1, 2}, {2, 3}};
  const auto bfs = courier::graph::reference::bfs(courier::graph::build_csr(path), 0);
  if (bfs.level[3] != 3) {
    std::puts("downstream: wrong BFS level");
    return 1;
  }
  courier::harness::RunSpec spec{.algorithm = "cc", .graph = "kron:8", .engine = "vertex", .ranks = 2, .threads = 1,
                                 .verify = true};
  spec.options.set("policy", "cvc");
  const courier::harness::RunResult result = courier::harness::run(courier::builtin_registry(), spec);
  const auto& labels = std::get<std::vector<std::uint64_t>>(result.values);
  if (!result.passed() || labels.size() != 256 || result.summary.json["components"].get<int>() < 1) {
    std::puts("downstream: the run API's cc failed");
    return 1;
  }
  std::puts("downstream: ok");
  return 0;
}
