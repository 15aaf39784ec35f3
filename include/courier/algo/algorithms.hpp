#pragma once
// The descriptors of Courier's algorithms (harness/algorithm.hpp), one per algorithm, each in
// src/algo/NAME_algorithm.cpp beside the algorithm's kernels.
#include "courier/harness/algorithm.hpp"
#include "courier/harness/registry.hpp"

namespace courier::algo {

harness::Algorithm degree_algorithm();
harness::Algorithm bfs_algorithm();
harness::Algorithm sssp_algorithm();
harness::Algorithm cc_algorithm();
harness::Algorithm pagerank_algorithm();
harness::Algorithm tc_algorithm();
harness::Algorithm kcore_algorithm();
harness::Algorithm spmv_algorithm();
harness::Algorithm bc_algorithm();

// Registers every algorithm above, in the order `courier list` shows them.
void add_builtin_algorithms(harness::Registry& registry);

}  // namespace courier::algo
