#include "courier/core/backoff.hpp"

#include <algorithm>
#include <thread>

namespace courier {

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
  std::this_thread::sleep_for(sleep);
}

}  // namespace courier
