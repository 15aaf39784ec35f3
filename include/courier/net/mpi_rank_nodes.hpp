#pragma once
// Which ranks of an MPI communicator share a machine's memory, as the launcher placed them: the
// shared-memory split of the communicator, each node named by its lowest rank. Used by every
// transport that starts under MPI (mpi, and ofi, which bootstraps through it).
#include <mpi.h>

#include <vector>

namespace courier::net {

// Collective over `comm`: nodes[r] is the lowest rank of `comm` on rank r's node.
std::vector<int> mpi_rank_nodes(MPI_Comm comm);

// The same for any grouping: `group` is this rank's part of a split of `comm` (collective over
// both). mpi_rank_nodes passes the shared-memory split; tests pass others to act out several nodes.
std::vector<int> group_leaders(MPI_Comm comm, MPI_Comm group);

}  // namespace courier::net
