#include "courier/graph/reference/connected_components.hpp"

#include <numeric>

#include "courier/core/cancel.hpp"

namespace courier::graph::reference {

namespace {

// Union-find whose root is always the smallest id of its set: unions hang the larger root under
// the smaller, and path halving never changes a root.
class MinRootForest {
 public:
  explicit MinRootForest(vertex_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), vertex_t{0}); }
  vertex_t find(vertex_t x) {
    while (parent_[x] != x) {
      parent_[x] = parent_[parent_[x]];
      x = parent_[x];
    }
    return x;
  }
  void unite(vertex_t a, vertex_t b) {
    a = find(a);
    b = find(b);
    if (a < b) parent_[b] = a;
    else if (b < a) parent_[a] = b;
  }

 private:
  std::vector<vertex_t> parent_;
};

}  // namespace

std::vector<vertex_t> connected_components(const Csr& graph) {
  const vertex_t n = graph.num_vertices();
  MinRootForest forest(n);
  for (vertex_t u = 0; u < n; ++u) {
    if (u % 65536 == 0) stop_if_cancelled();
    for (vertex_t v : graph.neighbors(u)) forest.unite(u, v);
  }
  std::vector<vertex_t> label(n);
  for (vertex_t v = 0; v < n; ++v) label[v] = forest.find(v);
  return label;
}

}  // namespace courier::graph::reference
