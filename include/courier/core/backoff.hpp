#pragma once
// Backoff: what every polling loop does when it found no work. It spins briefly (cheap when the
// event is a few instructions away), then yields the core (another thread may be the one that
// must act), then sleeps for growing short intervals, so that runs with more threads than cores
// (this project's 2-core machines) still make progress quickly instead of burning the CPU.
#include <chrono>
#include <cstdint>

namespace courier {

class Backoff {
 public:
  struct Limits {
    std::uint32_t spins = 32;   // busy pauses before the first yield
    std::uint32_t yields = 64;  // yields before the first sleep (cheap; lets other threads run)
    std::chrono::microseconds first_sleep{10};
    std::chrono::microseconds max_sleep{200};
  };

  Backoff() = default;
  explicit Backoff(Limits limits) : limits_(limits) {}

  // One step of waiting; each call waits a little longer, up to max_sleep.
  void pause();
  // Work was found: the next wait starts with spinning again.
  void reset() { step_ = 0; }
  // True once pause() has moved past spinning and yielding to sleeping.
  bool sleeping() const { return step_ > limits_.spins + limits_.yields; }

 private:
  Limits limits_{};
  std::uint32_t step_ = 0;
};

// A single processor hint for spin loops ("I am waiting"): cheap and polite to the sibling thread.
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

}  // namespace courier
