#pragma once
// Stopping a run from outside (Ctrl-C in Python, a signal handler): anyone may ask, and engines
// look where their ranks already agree (the reduction that ends a round), so every rank sees the
// request in the same round, throws Cancelled there, and the run unwinds cleanly on all of them.
#include "courier/core/error.hpp"

namespace courier {

// The run was asked to stop; every rank throws it in the same round.
class Cancelled : public Error {
 public:
  Cancelled() : Error("the run was interrupted (cancelled) before it finished; nothing was written") {}
};

// Async-signal-safe: a lock-free atomic store, callable from a signal handler.
void request_cancellation() noexcept;
bool cancellation_requested() noexcept;
// Before a run: a request left over from an earlier one does not stop the next.
void clear_cancellation() noexcept;
// For loops that run on one rank alone (the sequential references): no agreement needed.
inline void stop_if_cancelled() {
  if (cancellation_requested()) throw Cancelled();
}

}  // namespace courier
