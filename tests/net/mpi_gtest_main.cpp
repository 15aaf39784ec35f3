// main() of the GoogleTest programs that run under mpirun (courier_mpi_tests): MPI with
// MPI_THREAD_MULTIPLE around the tests, rank 0 reporting, the others printing only their failures.
#include "support/mpi_gtest.hpp"

int main(int argc, char** argv) {
  return courier::test_support::run_all_tests_under_mpi(argc, argv, MPI_THREAD_MULTIPLE);
}
