#pragma once
// How the sync layer's threads wait for messages: a synchronisation phase is a few microseconds of
// latency per round, so a waiting thread yields for a while (cheap: another thread that needs the
// core gets it) and then sleeps only briefly, never long enough to add its sleep to every round.
// The MPI baselines' communication thread waits the same way (one Backoff, these limits).
#include <chrono>

#include "courier/core/backoff.hpp"

namespace courier::sync {

inline constexpr Backoff::Limits kPhaseWait{.spins = 32,
                                            .yields = 256,
                                            .first_sleep = std::chrono::microseconds(2),
                                            .max_sleep = std::chrono::microseconds(20)};

}  // namespace courier::sync
