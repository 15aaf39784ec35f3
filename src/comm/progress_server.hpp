#pragma once
// ProgressServer: the thread that runs rounds of progress (RuntimeOptions::progress_thread)
// while the callers do not: callers that poll drive the runtime themselves (no hand-off between
// threads on the latency path), so the server backs off while their rounds climb.
#include <atomic>
#include <thread>

#include "courier/core/backoff.hpp"
#include "progress.hpp"
#include "progress_lock.hpp"
#include "shutdown.hpp"

namespace courier::comm {

class ProgressServer {
 public:
  ProgressServer(Progress& progress, ProgressLock& lock, Shutdown& shutdown, rank_t rank, Backoff::Limits backoff)
      : progress_(progress), lock_(lock), shutdown_(shutdown), rank_(rank), backoff_(backoff) {}
  ProgressServer(const ProgressServer&) = delete;
  ProgressServer& operator=(const ProgressServer&) = delete;
  ~ProgressServer() { stop(); }

  void start() { thread_ = std::thread([this] { serve(); }); }
  void stop() {
    stop_.store(true, std::memory_order_release);
    if (thread_.joinable()) thread_.join();
  }
  bool running() const { return thread_.joinable(); }

 private:
  void serve();

  Progress& progress_;
  ProgressLock& lock_;
  Shutdown& shutdown_;
  const rank_t rank_;
  const Backoff::Limits backoff_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace courier::comm
