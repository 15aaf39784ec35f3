#pragma once
// Helpers shared by mailbox_bench's parts (mailbox_bench.cpp, mailbox_degree_part.cpp).
#include <mpi.h>

#include <algorithm>
#include <ctime>
#include <vector>

#include "courier/graph/generate.hpp"

namespace mailbox_bench {

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// CPU seconds this process used: on a loaded machine a steadier measure of the work than wall time.
inline double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

inline double max_over_ranks(double value) {
  double out = 0;
  MPI_Allreduce(&value, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

// This rank's share of a generated graph's edges: a contiguous range, generated on its own.
inline courier::graph::EdgeList my_slice(const courier::graph::GeneratorOptions& g, int rank, int ranks) {
  const auto m = courier::graph::generated_edge_count(g);
  const auto P = static_cast<std::uint64_t>(ranks), r = static_cast<std::uint64_t>(rank);
  return courier::graph::generate_range(g, m * r / P, m * (r + 1) / P);
}

}  // namespace mailbox_bench
