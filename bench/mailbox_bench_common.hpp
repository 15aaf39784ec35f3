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

// MPI_Alltoallv's displacements: displs[d] is the sum of counts[0..d). Returns the total.
inline std::size_t displacements(const std::vector<int>& counts, std::vector<int>& displs) {
  std::size_t at = 0;
  for (std::size_t d = 0; d < counts.size(); ++d) {
    displs[d] = static_cast<int>(at);
    at += static_cast<std::size_t>(counts[d]);
  }
  return at;
}

// This rank's share of a generated graph's edges: a contiguous range, generated on its own.
inline courier::graph::EdgeList my_slice(const courier::graph::GeneratorOptions& g, int rank, int ranks) {
  const auto m = courier::graph::generated_edge_count(g);
  const auto P = static_cast<std::uint64_t>(ranks), r = static_cast<std::uint64_t>(rank);
  return courier::graph::generate_range(g, m * r / P, m * (r + 1) / P);
}

}  // namespace mailbox_bench
