#pragma once
// Shutdown: the collective shutdown's phase machine (see Runtime's header). Closing stops new
// posts; then the rank flushes until nothing it posted waits for the transport and its
// rendezvous transfers are done (or the timeout drops what is left), sends every rank a FIN
// with the number of packets it sent there, progresses until every packet announced to it has
// arrived, and meets the others in a device barrier. The phase moves on in the progress rounds.
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "courier/comm/completion.hpp"
#include "courier/net/device.hpp"
#include "progress_lock.hpp"

namespace courier::comm {

class Arrivals;
class Outgoing;
class Progress;
class ProgressServer;
class Rendezvous;

class Shutdown {
 public:
  Shutdown(rank_t rank, rank_t ranks, std::chrono::milliseconds timeout)
      : rank_(rank), ranks_(ranks), timeout_(timeout) {}

  // Posting side, on every post: an inline check, an out-of-line error.
  void check_open(const char* what) const {
    if (closing()) [[unlikely]] closed_error(what);
  }
  bool closing() const { return closing_.load(std::memory_order_relaxed); }

  // Runtime::shutdown, on the caller's thread; idempotent. Throws if a peer never shut down.
  void run(ProgressLock& lock, Progress& progress, ProgressServer& server, net::Device& device);

  // The progress lock's holder, each round while the phase is not `running`.
  bool running() const { return phase_.load(std::memory_order_relaxed) == Phase::running; }
  std::size_t step(ProgressToken token, Outgoing& outgoing, const Rendezvous& rendezvous,
                   const Arrivals& arrivals);
  // The progress server failed: shutdown throws `why`.
  void fail(ProgressToken token, std::string why);

 private:
  enum class Phase : std::uint8_t { running, flushing, finishing, done, failed };
  [[noreturn]] void closed_error(const char* what) const;

  const rank_t rank_, ranks_;
  const std::chrono::milliseconds timeout_;
  std::atomic<bool> closing_{false};
  std::atomic<Phase> phase_{Phase::running};
  Locked<std::chrono::steady_clock::time_point> deadline_;
  std::string failure_;  // written by the lock holder before phase_ becomes failed, read after
  bool started_ = false;  // the thread that calls Runtime::shutdown
};

}  // namespace courier::comm
