#pragma once
// Whether courier was started by an MPI launcher (mpirun, mpiexec, srun): then this process is one
// rank of the run and MPI is the distributed engine; otherwise ranks are threads of this process.
#include <functional>
#include <memory>

namespace courier::cli {

class MpiSession;

// Open MPI, MPICH/Hydra and Slurm each leave their mark in the environment.
bool launched_by_mpi();

// MPI for the lifetime of a `courier run` under a launcher; rank 0 speaks for the run.
class MpiSession {
 public:
  MpiSession();
  ~MpiSession();
  int rank() const;
  int ranks() const;
  // Collective: true on every rank when every rank passed `ok`.
  bool all(bool ok) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// After an error on one rank: end the whole run rather than leave the others waiting.
void abort_run_if_distributed();

// Runs `step` (part of a run on rank `rank` of `ranks`). A dist::LoadError passes on: every rank
// throws it alike. Any other failure may leave the other ranks waiting for this one in a collective,
// so it is printed as "courier: error (rank R of N): ..." and ends the whole run at once, before
// unwinding (a runtime's destructor would first wait for the others to shut down): MPI_Abort under
// a launcher, the process's exit (status 1) with ranks as threads.
void ending_the_run_on_failure(int rank, int ranks, const std::function<void()>& step);

}  // namespace courier::cli
