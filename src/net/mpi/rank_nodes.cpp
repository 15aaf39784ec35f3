#include "courier/net/mpi_rank_nodes.hpp"

#include "courier/net/mpi_check.hpp"

namespace courier::net {

std::vector<int> group_leaders(MPI_Comm comm, MPI_Comm group) {
  int rank = 0, size = 0;
  mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  mpi_check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  int leader = rank;
  mpi_check(MPI_Allreduce(MPI_IN_PLACE, &leader, 1, MPI_INT, MPI_MIN, group), "MPI_Allreduce");
  std::vector<int> leaders(static_cast<std::size_t>(size));
  mpi_check(MPI_Allgather(&leader, 1, MPI_INT, leaders.data(), 1, MPI_INT, comm), "MPI_Allgather");
  return leaders;
}

std::vector<int> mpi_rank_nodes(MPI_Comm comm) {
  int rank = 0;
  mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  MPI_Comm shared = MPI_COMM_NULL;
  mpi_check(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared), "MPI_Comm_split_type");
  struct Freed {
    MPI_Comm& comm;
    ~Freed() { MPI_Comm_free(&comm); }
  } freed{shared};
  return group_leaders(comm, shared);
}

}  // namespace courier::net
