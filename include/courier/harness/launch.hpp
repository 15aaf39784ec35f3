#pragma once
// Launch: how the ranks of a run exist. Under an MPI launcher (mpirun, mpiexec, srun) this process
// is one rank and MPI lives as long as the Launch; without one, ranks are threads of this process
// on the local transport (run_local_ranks). Rank 0 speaks for the run.
#include <functional>
#include <memory>

#include "courier/comm/runtime.hpp"

namespace courier::harness {

// Open MPI, MPICH/Hydra and Slurm each leave their mark in the environment.
bool launched_by_mpi();

class Launch {
 public:
  // Ranks as threads of this process (or none: a sequential engine).
  Launch();
  // Under a launcher: initialises MPI (throws InputError if Courier was built without it), and
  // with watchdog_seconds > 0 starts a Watchdog (watchdog.hpp) with that limit.
  static Launch mpi(double watchdog_seconds = 0);
  // mpi() when launched by MPI and `distributed`, else threads.
  static Launch detect(bool distributed, double watchdog_seconds = 0);
  Launch(Launch&&) noexcept;
  Launch& operator=(Launch&&) noexcept;
  ~Launch();

  bool under_mpi() const { return mpi_ != nullptr; }
  int rank() const;   // this process's MPI rank; 0 without MPI
  int ranks() const;  // the launched processes; 1 without MPI
  bool speaker() const { return rank() == 0; }

 private:
  struct Mpi;
  std::unique_ptr<Mpi> mpi_;
};

// After an error on one rank: end the whole run rather than leave the others waiting.
void abort_run_if_distributed();

// Runs `step` (part of a run on rank `rank` of `ranks`), showing progress only on rank 0. A
// dist::LoadError passes on: every rank
// throws it alike. Any other failure may leave the other ranks waiting for this one in a
// collective, so it is printed as "courier: error (rank R of N): ..." and ends the whole run at
// once, before unwinding (a runtime's destructor would first wait for the others to shut down):
// MPI_Abort under a launcher, the process's exit (status 1) with ranks as threads.
void ending_the_run_on_failure(int rank, int ranks, const std::function<void()>& step);

// Ranks as threads of this process (comm::run_local), each body under ending_the_run_on_failure:
// an agreed dist::LoadError is rethrown here; any other failure of one rank ends the process at
// once with that rank's error and status 1, as MPI_Abort ends a run under mpirun. Nothing is half
// written: output files are written after the ranks end.
void run_local_ranks(int ranks, const std::function<void(comm::Runtime&)>& body, comm::RuntimeOptions options = {});

}  // namespace courier::harness
