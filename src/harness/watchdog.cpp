#include "courier/harness/watchdog.hpp"

#include <fmt/format.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "courier/core/error.hpp"
#include "courier/core/parse_number.hpp"

#ifdef COURIER_HAVE_MPI
#include <mpi.h>
#endif

namespace courier::harness {

double watchdog_seconds_from_environment() {
  const char* text = std::getenv("COURIER_WATCHDOG");
  if (text == nullptr || *text == '\0') return 0;
  double seconds = 0;
  if (parse_floating(text, seconds) != ParseStatus::ok || !(seconds >= 0) || seconds > 1e9)
    throw InputError(fmt::format("COURIER_WATCHDOG='{}': write the seconds a rank may stay silent (0: off)", text));
  return seconds;
}

#ifdef COURIER_HAVE_MPI

namespace {

using Clock = std::chrono::steady_clock;

enum Beat : unsigned char { alive = 1, goodbye = 2 };

}  // namespace

struct Watchdog::State {
  MPI_Comm ring = MPI_COMM_NULL;
  int rank = 0, ranks = 1;
  std::chrono::duration<double> limit{};
  std::atomic<bool> stopping{false};
  std::thread thread;

  void watch() {
    const int previous = (rank + ranks - 1) % ranks, next = (rank + 1) % ranks;
    // Often enough that a late beat is never the cause, seldom enough to cost nothing.
    const auto period = std::chrono::duration_cast<Clock::duration>(
        std::min<std::chrono::duration<double>>(limit / 8, std::chrono::milliseconds(500)));
    unsigned char heard = 0, sent = alive;
    MPI_Request receive = MPI_REQUEST_NULL, send = MPI_REQUEST_NULL;
    MPI_Irecv(&heard, 1, MPI_UNSIGNED_CHAR, previous, 0, ring, &receive);
    Clock::time_point last_heard = Clock::now();
    bool listening = true;
    while (!stopping.load(std::memory_order_acquire)) {
      int done = 1;
      if (send != MPI_REQUEST_NULL) MPI_Test(&send, &done, MPI_STATUS_IGNORE);
      if (done) MPI_Isend(&sent, 1, MPI_UNSIGNED_CHAR, next, 0, ring, &send);
      for (int arrived = 1; listening && arrived;) {
        MPI_Test(&receive, &arrived, MPI_STATUS_IGNORE);
        if (!arrived) break;
        last_heard = Clock::now();
        if (heard == goodbye)
          listening = false;  // it finished: its silence is no longer news
        else
          MPI_Irecv(&heard, 1, MPI_UNSIGNED_CHAR, previous, 0, ring, &receive);
      }
      const std::chrono::duration<double> silent = Clock::now() - last_heard;
      if (listening && silent > limit) {
        std::fprintf(stderr,
                     "courier: error (rank %d of %d): rank %d has not been heard from for %.0f s (stopped, swapped "
                     "out or lost?); every rank waits for it, so the run ends here (--watchdog or COURIER_WATCHDOG "
                     "set the limit)\n",
                     rank, ranks, previous, silent.count());
        std::fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
      std::this_thread::sleep_for(period);
    }
    if (send != MPI_REQUEST_NULL) MPI_Wait(&send, MPI_STATUS_IGNORE);
    sent = goodbye;
    MPI_Send(&sent, 1, MPI_UNSIGNED_CHAR, next, 0, ring);
    if (listening) {
      MPI_Cancel(&receive);
      MPI_Wait(&receive, MPI_STATUS_IGNORE);
    }
  }
};

Watchdog::Watchdog(double limit_seconds) : state_(std::make_unique<State>()) {
  int provided = 0;
  MPI_Query_thread(&provided);
  if (provided < MPI_THREAD_MULTIPLE)
    throw InputError("--watchdog needs MPI_THREAD_MULTIPLE, which this MPI did not provide");
  MPI_Comm_dup(MPI_COMM_WORLD, &state_->ring);
  MPI_Comm_rank(state_->ring, &state_->rank);
  MPI_Comm_size(state_->ring, &state_->ranks);
  state_->limit = std::chrono::duration<double>(limit_seconds);
  if (state_->ranks > 1) state_->thread = std::thread([state = state_.get()] { state->watch(); });
}

Watchdog::~Watchdog() {
  state_->stopping.store(true, std::memory_order_release);
  if (state_->thread.joinable()) state_->thread.join();
  // Not freed: MPI_Comm_free may wait for the other ranks, which may still be writing the output;
  // MPI_Finalize frees it.
}

#else

struct Watchdog::State {};
Watchdog::Watchdog(double) {
  throw InputError("--watchdog is for runs under mpirun, and courier was built without MPI");
}
Watchdog::~Watchdog() = default;

#endif

}  // namespace courier::harness
