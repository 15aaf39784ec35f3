#include "courier/core/backoff.hpp"

#include <algorithm>
#include <thread>

#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace courier {

namespace {

// Linux wakes a sleeping thread up to its timer slack (50 us by default) late, which would turn
// each of the sync layer's 2-20 us sleeps into 50-70 us added to a round's latency; 1 us of
// slack for the threads that wait here (set once per thread, at its first sleep).
void tighten_timer_slack() {
#ifdef __linux__
  static thread_local const bool once = [] {
    prctl(PR_SET_TIMERSLACK, 1000UL, 0UL, 0UL, 0UL);
    return true;
  }();
  (void)once;
#endif
}

}  // namespace

void Backoff::pause() {
  const std::uint32_t step = step_;
  if (step_ < UINT32_MAX) ++step_;
  if (step < limits_.spins) {
    cpu_relax();
    return;
  }
  if (step < limits_.spins + limits_.yields) {
    std::this_thread::yield();
    return;
  }
  // Double the sleep with every step past the yields, capped at max_sleep.
  const std::uint32_t doublings = std::min<std::uint32_t>(step - limits_.spins - limits_.yields, 16);
  const auto sleep = std::min(limits_.first_sleep * (1u << doublings), limits_.max_sleep);
  tighten_timer_slack();
  std::this_thread::sleep_for(sleep);
}

}  // namespace courier
