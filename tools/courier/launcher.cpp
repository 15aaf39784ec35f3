#include "launcher.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>

#include <fmt/format.h>

#include "courier/core/error.hpp"
#include "courier/dist/distributed_load.hpp"

#ifdef COURIER_HAVE_MPI
#include <mpi.h>

#include "courier/net/mpi_environment.hpp"
#endif

namespace courier::cli {

bool launched_by_mpi() {
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "SLURM_PROCID"})
    if (std::getenv(variable)) return true;
  return false;
}

#ifdef COURIER_HAVE_MPI
struct MpiSession::State {
  net::MpiEnvironment environment;
};
MpiSession::MpiSession() : state_(std::make_unique<State>()) {}
MpiSession::~MpiSession() = default;
int MpiSession::rank() const { return state_->environment.world_rank(); }
int MpiSession::ranks() const { return state_->environment.world_size(); }
bool MpiSession::all(bool ok) const {
  int mine = ok ? 1 : 0, everyone = 0;
  MPI_Allreduce(&mine, &everyone, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return everyone == 1;
}
void abort_run_if_distributed() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) MPI_Abort(MPI_COMM_WORLD, 1);
}
#else
struct MpiSession::State {};
MpiSession::MpiSession() {
  throw InputError("courier was built without MPI (COURIER_WITH_MPI=OFF): run it without a launcher, with --ranks");
}
MpiSession::~MpiSession() = default;
int MpiSession::rank() const { return 0; }
int MpiSession::ranks() const { return 1; }
bool MpiSession::all(bool ok) const { return ok; }
void abort_run_if_distributed() {}
#endif

namespace {

[[noreturn]] void end_run(int rank, int ranks, const std::string& what) {
  std::fflush(stdout);
  fmt::print(stderr, "courier: error (rank {} of {}): {}\n", rank, ranks, what);
  std::fflush(stderr);
  abort_run_if_distributed();
  std::_Exit(1);  // ranks as threads: the others may be blocked for good, so no unwinding, no joins
}

}  // namespace

void ending_the_run_on_failure(int rank, int ranks, const std::function<void()>& step) {
  try {
    step();
  } catch (const dist::LoadError&) {
    throw;
  } catch (...) {
    end_run(rank, ranks, describe_current_exception());
  }
}

}  // namespace courier::cli
