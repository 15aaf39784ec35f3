#include "courier/algo/builtin.hpp"

#include "courier/algo/algorithms.hpp"
#include "courier/engines/builtin.hpp"

namespace courier {

namespace algo {

void add_builtin_algorithms(harness::Registry& registry) {
  registry.add(degree_algorithm());
  registry.add(bfs_algorithm());
  registry.add(sssp_algorithm());
  registry.add(cc_algorithm());
  registry.add(pagerank_algorithm());
  registry.add(tc_algorithm());
  registry.add(kcore_algorithm());
  registry.add(spmv_algorithm());
  registry.add(bc_algorithm());
}

}  // namespace algo

const harness::Registry& builtin_registry() {
  static const harness::Registry registry = [] {
    harness::Registry r;
    engines::add_builtin_engines(r);
    algo::add_builtin_algorithms(r);
    return r;
  }();
  return registry;
}

}  // namespace courier
