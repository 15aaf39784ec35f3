#pragma once
// Where a generated program's time goes on one rank, by the phases paper 004 profiles (Fig. 3, 8):
// computation in vertex loops (traversal and the reads in it), reductions synchronised, remote
// values fetched into mirrors, and agreements between ranks (convergence tests, shared scalars).
#include <cstdint>

namespace courier::dsl::rt {

struct Phases {
  double compute_seconds = 0;
  double reduction_seconds = 0;    // bulk reductions and reduction queues, at the ends of pulses
  double remote_read_seconds = 0;  // masters' values sent to the ranks that read them
  double agreement_seconds = 0;    // collectives on scalars and on convergence
  std::uint64_t pulses = 0;        // vertex loops and BFS levels run
  std::uint64_t reductions = 0;    // synchronisations of a reduced property
  std::uint64_t remote_reads = 0;  // synchronisations of a property read through mirrors
  std::uint64_t queued = 0;        // reduction entries sent through queues (this rank)
  std::uint64_t bottom_up = 0;     // rounds of bottom-up steps that pulled

  double total_seconds() const { return compute_seconds + reduction_seconds + remote_read_seconds + agreement_seconds; }
};

}  // namespace courier::dsl::rt
