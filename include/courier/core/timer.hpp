#pragma once
// Timer: wall-clock seconds since construction or the last lap.
#include <chrono>

namespace courier {

class Timer {
 public:
  Timer() : start_(Clock::now()) {}
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  // Seconds since the previous lap (or construction), and starts the next lap.
  double lap() {
    const auto now = Clock::now();
    const double seconds = std::chrono::duration<double>(now - start_).count();
    start_ = now;
    return seconds;
  }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_;
};

}  // namespace courier
