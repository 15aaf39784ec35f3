// Builds a path graph through the installed library and checks its BFS levels.
#include <cstdio>

#include <courier/graph/csr.hpp>
#include <courier/graph/reference.hpp>

int main() {
  courier::graph::EdgeList path;
  path.num_vertices = 4;
  path.edges = {{0, 1}, {1, 2}, {2, 3}};
  const auto bfs = courier::graph::reference::bfs(courier::graph::build_csr(path), 0);
  if (bfs.level[3] != 3) {
    std::puts("downstream: wrong BFS level");
    return 1;
  }
  std::puts("downstream: ok");
  return 0;
}
