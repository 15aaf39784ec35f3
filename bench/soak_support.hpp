#pragma once
// What bench/soak and bench/soak_layers share: message bytes that are a function of a key (so a
// receiver can check them), and the resident-memory watch that decides "flat".
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <thread>

namespace courier::soak {

inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The bytes of the message with key k.
inline void fill(std::byte* out, std::size_t size, std::uint64_t k) {
  for (std::size_t i = 0; i < size; i += 8) {
    const std::uint64_t word = mix(k + i);
    std::memcpy(out + i, &word, std::min<std::size_t>(8, size - i));
  }
}

inline bool intact(const std::byte* data, std::size_t size, std::uint64_t k) {
  for (std::size_t i = 0; i < size; i += 8) {
    const std::uint64_t word = mix(k + i);
    if (std::memcmp(data + i, &word, std::min<std::size_t>(8, size - i)) != 0) return false;
  }
  return true;
}

inline std::uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

// Samples the resident size while the run goes on; flat means the last sample is within 10% + 16
// MiB (plus what a layer bounds) of the one taken when a fifth of the messages (`progress` against
// `total`) had been sent.
struct MemoryWatch {
  std::atomic<bool> stop{false};
  std::uint64_t at_fifth = 0, last = 0, peak = 0;
  std::thread thread;
  void start(const std::atomic<std::uint64_t>& progress, double total) {
    thread = std::thread([this, &progress, total] {
      while (!stop.load()) {
        const std::uint64_t now = resident_bytes();
        peak = std::max(peak, now);
        if (at_fifth == 0 && static_cast<double>(progress.load()) >= total / 5) at_fifth = now;
        last = now;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
      }
    });
  }
  void finish() {
    stop.store(true);
    thread.join();
  }
  // `bounded`: memory the layer may legitimately hold more of at the end than at a fifth, whatever
  // the run's length (the mailbox's backlog, up to its pause mark).
  bool flat(std::uint64_t bounded = 0) const {
    return at_fifth == 0 || last <= at_fifth + at_fifth / 10 + (std::uint64_t{16} << 20) + bounded;
  }
};

}  // namespace courier::soak
