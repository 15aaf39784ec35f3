#include "courier/net/mpi_environment.hpp"

#include <mpi.h>

#include "courier/net/mpi_check.hpp"

namespace courier::net {

MpiEnvironment::MpiEnvironment(int* argc, char*** argv) {
  int initialised = 0;
  mpi_check(MPI_Initialized(&initialised), "MPI_Initialized");
  if (initialised) {
    mpi_check(MPI_Query_thread(&thread_level_), "MPI_Query_thread");
    return;
  }
  mpi_check(MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &thread_level_), "MPI_Init_thread");
  owns_ = true;
}

MpiEnvironment::~MpiEnvironment() {
  if (!owns_) return;
  int finalised = 0;
  MPI_Finalized(&finalised);
  if (!finalised) MPI_Finalize();
}

bool MpiEnvironment::thread_multiple() const { return thread_level_ == MPI_THREAD_MULTIPLE; }

std::string MpiEnvironment::thread_level_name() const {
  switch (thread_level_) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
    default: return "unknown MPI thread level";
  }
}

int MpiEnvironment::world_rank() const {
  int rank = 0;
  mpi_check(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
  return rank;
}

int MpiEnvironment::world_size() const {
  int size = 0;
  mpi_check(MPI_Comm_size(MPI_COMM_WORLD, &size), "MPI_Comm_size");
  return size;
}

}  // namespace courier::net
