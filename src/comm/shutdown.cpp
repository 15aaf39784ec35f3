#include "shutdown.hpp"

#include "arrivals.hpp"
#include "courier/core/backoff.hpp"
#include "courier/core/error.hpp"
#include "outgoing.hpp"
#include "progress.hpp"
#include "progress_server.hpp"
#include "rendezvous.hpp"

namespace courier::comm {

void Shutdown::closed_error(const char* what) const {
  throw Error(std::string("comm::Endpoint::") + what + " after shutdown began on rank " + std::to_string(rank_) +
              "; post everything before Runtime::shutdown");
}

void Shutdown::run(ProgressLock& lock, Progress& progress, ProgressServer& server, net::Device& device) {
  if (started_) return;
  started_ = true;
  closing_.store(true, std::memory_order_relaxed);
  {
    ProgressLock::Guard held = lock.hold();
    deadline_.get(held.token()) = std::chrono::steady_clock::now() + timeout_;
    if (phase_.load(std::memory_order_relaxed) == Phase::running) phase_.store(Phase::flushing, std::memory_order_release);
  }
  Backoff backoff;
  auto finished = [&] {
    const Phase p = phase_.load(std::memory_order_acquire);
    return p == Phase::done || p == Phase::failed;
  };
  while (!finished()) {
    if (!server.running() && progress.try_round()) {
      backoff.reset();
    } else {
      backoff.pause();
    }
  }
  server.stop();
  if (phase_.load(std::memory_order_acquire) == Phase::failed) throw Error(failure_);
  device.barrier();
}

std::size_t Shutdown::step(ProgressToken token, Outgoing& outgoing, const Rendezvous& rendezvous,
                           const Arrivals& arrivals) {
  const auto now = std::chrono::steady_clock::now();
  auto& deadline = deadline_.get(token);
  const Phase current = phase_.load(std::memory_order_relaxed);
  if (current == Phase::flushing) {
    const bool idle = rendezvous.idle(token) && !outgoing.holds_packets(token);
    if (!idle && now < deadline) return 0;
    if (!idle) outgoing.drop_unsent(token);  // timed out: whatever is still queued will never be sent
    for (rank_t d = 0; d < ranks_; ++d) {
      wire::Header fin;
      fin.type = wire::Type::fin;
      fin.a = outgoing.packets_sent(token, d);
      outgoing.send_control(token, d, fin);
    }
    deadline = now + timeout_;
    phase_.store(Phase::finishing, std::memory_order_release);
    return 1;
  }
  if (current == Phase::finishing) {
    bool finished = !rendezvous.awaiting_puts(token);
    std::string missing;
    for (rank_t r = 0; r < ranks_; ++r) {
      const bool heard = arrivals.heard_all(token, r);
      if (!heard) missing += (missing.empty() ? "" : ", ") + std::to_string(r);
      finished = finished && heard && outgoing.control_sent(token, r);
    }
    if (finished) {
      phase_.store(Phase::done, std::memory_order_release);
      return 1;
    }
    if (now >= deadline) {
      fail(token, "comm::Runtime::shutdown on rank " + std::to_string(rank_) + ": ranks [" + missing +
                      "] did not finish shutting down within " + std::to_string(timeout_.count()) +
                      " ms; every rank must call shutdown (or destroy its Runtime) and keep its progress running");
      return 1;
    }
  }
  return 0;
}

void Shutdown::fail(ProgressToken, std::string why) {
  failure_ = std::move(why);
  phase_.store(Phase::failed, std::memory_order_release);
}

}  // namespace courier::comm
