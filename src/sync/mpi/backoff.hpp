#pragma once
// Backoff for polling loops: yield first (a peer on this core may be the one we wait for), then
// sleep briefly, so ranks beyond the core count still progress on a 2-core machine.
#include <chrono>
#include <thread>

namespace courier::sync::mpi {

class Backoff {
 public:
  void reset() { idle_ = 0; }
  // Call after a poll that found nothing.
  void pause() {
    ++idle_;
    if (idle_ < kYields)
      std::this_thread::yield();
    else
      std::this_thread::sleep_for(std::chrono::microseconds(idle_ < 4 * kYields ? 2 : 20));
  }

 private:
  static constexpr unsigned kYields = 64;
  unsigned idle_ = 0;
};

}  // namespace courier::sync::mpi
