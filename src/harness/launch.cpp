#include "courier/harness/launch.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <exception>

#include "courier/comm/local_world.hpp"
#include "courier/core/cancel.hpp"
#include "courier/core/error.hpp"
#include "courier/core/progress.hpp"
#include "courier/dist/distributed_load.hpp"
#include "courier/harness/watchdog.hpp"

#ifdef COURIER_HAVE_MPI
#include <mpi.h>

#include "courier/net/mpi_environment.hpp"
#endif

namespace courier::harness {

bool launched_by_mpi() {
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "SLURM_PROCID"})
    if (std::getenv(variable)) return true;
  return false;
}

#ifdef COURIER_HAVE_MPI
struct Launch::Mpi {
  net::MpiEnvironment environment;
  std::unique_ptr<Watchdog> watchdog;  // after the environment: stops before MPI ends
};
int Launch::rank() const { return mpi_ ? mpi_->environment.world_rank() : 0; }
int Launch::ranks() const { return mpi_ ? mpi_->environment.world_size() : 1; }
Launch Launch::mpi(double watchdog_seconds) {
  Launch launch;
  launch.mpi_ = std::make_unique<Mpi>();
  if (watchdog_seconds > 0) launch.mpi_->watchdog = std::make_unique<Watchdog>(watchdog_seconds);
  return launch;
}
void abort_run_if_distributed() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) MPI_Abort(MPI_COMM_WORLD, 1);
}
#else
struct Launch::Mpi {};
int Launch::rank() const { return 0; }
int Launch::ranks() const { return 1; }
Launch Launch::mpi(double) {
  throw InputError("courier was built without MPI (COURIER_WITH_MPI=OFF): run it without a launcher, with --ranks");
}
void abort_run_if_distributed() {}
#endif

Launch::Launch() = default;
Launch::Launch(Launch&&) noexcept = default;
Launch& Launch::operator=(Launch&&) noexcept = default;
Launch::~Launch() = default;

Launch Launch::detect(bool distributed, double watchdog_seconds) {
  return distributed && launched_by_mpi() ? mpi(watchdog_seconds) : Launch();
}

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
  const ProgressSpeaker speaker(rank == 0);  // rank 0 speaks for all: one progress line, not N
  try {
    step();
  } catch (const dist::LoadError&) {
    throw;
  } catch (const Cancelled&) {  // every rank throws it in the same round
    throw;
  } catch (...) {
    end_run(rank, ranks, describe_current_exception());
  }
}

void run_local_ranks(int ranks, const std::function<void(comm::Runtime&)>& body, comm::RuntimeOptions options) {
  comm::run_local(
      ranks,
      [&](comm::Runtime& runtime) {
        ending_the_run_on_failure(runtime.rank(), runtime.ranks(), [&] { body(runtime); });
      },
      options);
}

}  // namespace courier::harness
