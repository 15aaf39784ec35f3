#pragma once
// One way of moving bytes between ranks 0 and 1, measured two ways (OSU style):
//   latency: ping-pong of `bytes`, half the round trip in microseconds;
//   rate:    each of `threads` threads per rank streams windows of 64 messages of 64 B and waits
//            for an acknowledgement per window; messages per second over all threads.
// Every rank calls both functions (collectively); only ranks 0 and 1 move data, the others wait.
#include <mpi.h>

#include <barrier>
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace courier::bench {

struct Setup {
  int rank = 0;
  int ranks = 0;
  double scale = 1.0;  // multiplies the iteration counts (--quick makes it small)

  bool active() const { return rank < 2; }
  int peer() const { return 1 - rank; }
  int latency_iterations(std::size_t bytes) const {
    int base = bytes <= 8192 ? 10000 : bytes <= 131072 ? 2000 : 500;
    return std::max(10, static_cast<int>(base * scale));
  }
  int rate_windows() const { return std::max(10, static_cast<int>(1000 * scale)); }
};

constexpr int rate_window = 64;
constexpr std::size_t rate_message_bytes = 64;

struct Variant {
  std::string name;
  std::function<double(const Setup&, std::size_t bytes)> latency_us;
  std::function<double(const Setup&, int threads)> messages_per_second;
};

// Polling backs off: it spins first (as MPI_Wait does, so that the variants compare fairly), then
// yields, then sleeps briefly, so that oversubscribed runs still move.
class Backoff {
 public:
  void idle() {
    ++idle_;
    if (idle_ < 4096) return;
    if (idle_ < 8192) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
  }
  void reset() { idle_ = 0; }

 private:
  int idle_ = 0;
};

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The clock of a multi-threaded run starts once every thread has finished its warm-up, so that a
// thread the scheduler delays cannot shorten the measured interval.
class WarmupClock {
 public:
  explicit WarmupClock(int threads)
      : warmed_up_(threads, Start{this}) {}
  void arrive() { warmed_up_.arrive_and_wait(); }
  double seconds() const { return seconds_since(start_); }

 private:
  struct Start {
    WarmupClock* clock;
    void operator()() noexcept { clock->start_ = std::chrono::steady_clock::now(); }
  };
  std::chrono::steady_clock::time_point start_;
  std::barrier<Start> warmed_up_;
};

// Runs body(t) on `threads` threads and joins them.
template <class Body>
void run_threads(int threads, Body body) {
  std::vector<std::thread> team;
  for (int t = 0; t < threads; ++t) team.emplace_back(body, t);
  for (std::thread& thread : team) thread.join();
}

std::vector<Variant> raw_mpi_variants();
std::vector<Variant> device_variants();
std::vector<Variant> runtime_variants();  // Courier's comm::Runtime on each transport

}  // namespace courier::bench
