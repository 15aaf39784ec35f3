#pragma once
// mailbox_bench --part degree: issue 4's baseline. Degree counting (Algorithm 1, both ends of
// every edge) through the mailbox against an MPI_Alltoallv bulk exchange of the same vertex ids,
// both in rounds of the same capacity and as one exchange of them all, interleaved in the same run.
// Needs mpirun (2 or more ranks).
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mailbox_bench {

struct DegreePartOptions {
  std::vector<std::string> graphs;  // generator specs, e.g. kron:20
  std::size_t capacity = 64 * 1024;
  int repeats = 3;
  bool progress_thread = false;
};

// Collective over MPI_COMM_WORLD; rank 0 prints a table and appends JSON rows to `rows`.
void degree_part(const DegreePartOptions& options, int rank, int ranks, nlohmann::json& rows);

}  // namespace mailbox_bench
