#pragma once
// Where a generated program's time goes on one rank, by the phases paper 004 profiles (Fig. 3, 8):
// reductions synchronised, reads of the rank's own nodes through the window, reads of other ranks'
// nodes (one-sided gets, or masters' values sent to the mirrors that read them), traversal (edges
// searched for, as get_edge does), agreements between ranks (convergence tests, shared scalars), and
// the rest of the vertex loops' computation. The naive generation pays for local reads and
// traversal; the optimised one bypasses the window and walks rows in CSR order, so both are zero.
#include <cstdint>

namespace courier::dsl::rt {

struct Phases {
  double compute_seconds = 0;       // vertex loops, less the reads and searches below
  double reduction_seconds = 0;     // bulk reductions, queues and accumulates (naive), and their ends
  double local_read_seconds = 0;    // window gets of this rank's nodes (naive)
  double remote_read_seconds = 0;   // one-sided gets (naive), masters' values sent to mirrors
  double traversal_seconds = 0;     // edges searched for (naive get_edge)
  double agreement_seconds = 0;     // collectives on scalars and on convergence
  std::uint64_t pulses = 0;         // vertex loops and BFS levels run
  std::uint64_t reductions = 0;     // synchronisations of a reduced property
  std::uint64_t remote_reads = 0;   // synchronisations of a property read through mirrors
  std::uint64_t local_gets = 0;     // window gets of this rank's nodes (naive)
  std::uint64_t remote_gets = 0;    // one-sided gets of other ranks' nodes (naive)
  std::uint64_t edge_searches = 0;  // rows searched for an edge (naive get_edge)
  std::uint64_t accumulates = 0;    // one-sided accumulates of reductions (naive)
  std::uint64_t queued = 0;         // reduction entries sent through queues (this rank)
  std::uint64_t bottom_up = 0;      // rounds of bottom-up steps that pulled

  double total_seconds() const {
    return compute_seconds + reduction_seconds + local_read_seconds + remote_read_seconds + traversal_seconds +
           agreement_seconds;
  }
};

}  // namespace courier::dsl::rt
