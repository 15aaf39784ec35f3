#pragma once
// Watchdog: under a launcher, a thread on every rank that sends a heartbeat to the next rank of a
// ring and listens for the previous rank's. A rank silent for longer than the limit (stopped by
// SIGSTOP, swapped out, its node lost) would otherwise leave every other rank waiting for it in
// the next collective until an outer timeout; the rank after it names it and ends the whole run
// (MPI_Abort: every rank exits non-zero). Heartbeats come from their own thread, so a rank that
// computes alone for long is not silent: only a process that has stopped trips the watchdog. A
// deadlock of live ranks does not (that is a bug, not a fault of the machine).
//
// A rank that finishes says goodbye, so that its successor stops listening while the ranks end at
// different times (rank 0 writing the output). Needs MPI_THREAD_MULTIPLE; one ring per process.
#include <chrono>
#include <memory>

namespace courier::harness {

// The limit the environment asks for: COURIER_WATCHDOG=SECONDS (unset, empty or 0: off). Throws
// InputError on anything but a non-negative number.
double watchdog_seconds_from_environment();

class Watchdog {
 public:
  // Collective over MPI_COMM_WORLD (it duplicates it). limit_seconds > 0.
  explicit Watchdog(double limit_seconds);
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  ~Watchdog();  // says goodbye and stops the thread

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace courier::harness
