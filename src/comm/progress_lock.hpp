#pragma once
// ProgressLock: who drives the engine (and its device) right now. Any thread may try to take it
// -- the progress server, a caller's progress(), a poll() that found nothing, a send that hands
// its frame to the device itself -- and one that finds it taken goes on without waiting. A flag
// rather than a std::mutex: trying a mutex the thread already holds is undefined, and a handler
// running inside progress may post (whose fast path tries the lock) or poll.
#include <atomic>

#include "courier/core/backoff.hpp"
#include "courier/core/mpmc_queue.hpp"  // cache_line_bytes

namespace courier::comm {

class alignas(cache_line_bytes) ProgressLock {
 public:
  bool try_lock() {
    // Read first: a poller that finds it taken leaves the line shared instead of stealing it.
    return !taken_.load(std::memory_order_relaxed) && !taken_.exchange(true, std::memory_order_acquire);
  }
  // For the rare callers that must have it (shutdown, the server's failure path).
  void lock() {
    Backoff backoff;
    while (!try_lock()) backoff.pause();
  }
  void unlock() { taken_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> taken_{false};
};

}  // namespace courier::comm
