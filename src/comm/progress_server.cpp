#include "progress_server.hpp"

#include <exception>
#include <string>

namespace courier::comm {

void ProgressServer::serve() {
  Backoff backoff(backoff_);
  std::uint64_t seen = progress_.caller_rounds();
  try {
    while (!stop_.load(std::memory_order_acquire)) {
      // Competing with callers that progress would only take their core. Their rounds stop when
      // they go back to work, and the server takes over at its next look.
      const std::uint64_t now = progress_.caller_rounds();
      if (now != seen) {
        seen = now;
        backoff.pause();
      } else if (progress_.try_round(true)) {
        backoff.reset();
      } else {
        backoff.pause();
      }
    }
  } catch (const std::exception& e) {
    ProgressLock::Guard held = lock_.hold();
    shutdown_.fail(held.token(), std::string("progress server of rank ") + std::to_string(rank_) + ": " + e.what());
  }
}

}  // namespace courier::comm
