#pragma once
// Engine: the state of one rank's runtime and its progress engine (Algorithm 3 of paper 000).
// Fields marked [engine] are touched only by the thread holding progress_lock; the rest are
// shared with posting threads through atomics and lock-free queues.
//
// A round of progress costs what there is to do, not what there could be: endpoints with
// completions waiting are listed (backlog), and destinations with packets queued are marked in
// a bitmap by the posters (dirty), so an idle round reads a few words, whatever the number of
// endpoints and ranks.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "arrivals.hpp"
#include "counters.hpp"
#include "courier/comm/endpoint.hpp"
#include "courier/comm/runtime.hpp"
#include "courier/core/packet_pool.hpp"
#include "delivery.hpp"
#include "endpoint_state.hpp"
#include "endpoints.hpp"
#include "origin_slots.hpp"
#include "outgoing.hpp"
#include "progress_lock.hpp"
#include "rendezvous.hpp"
#include "windows.hpp"

namespace courier::comm {

struct Engine final {
  Engine(Runtime& runtime, std::unique_ptr<net::Device> device, RuntimeOptions options);
  ~Engine();

  // Posting side (any thread).
  Endpoint& create_endpoint(EndpointOptions options) { return endpoints.create(*this, std::move(options)); }
  // On every post: inline checks, out-of-line errors.
  void check_peer(rank_t r, const char* what) const {
    if (r < 0 || r >= ranks) [[unlikely]] peer_error(r, what);
  }
  void check_open(const char* what) const {
    if (closing.load(std::memory_order_relaxed)) [[unlikely]] closed_error(what);
  }
  [[noreturn]] void peer_error(rank_t r, const char* what) const;
  [[noreturn]] void closed_error(const char* what) const;

  // Progress (one thread at a time). `by_server` tells the server's rounds from the callers'.
  bool progress(bool by_server = false);
  std::size_t progress_locked(const ProgressToken& token);
  void serve();  // the progress server's loop
  void flush();  // Runtime::flush
  bool holds_outgoing(const ProgressToken& token) const;  // something posted still waits to go to the transport
  // Endpoint::poll found its queue empty: one round (unless another thread is progressing),
  // whose first completion for `e` goes straight to `out` when nothing else waits in e's queue.
  bool poll_progress(EndpointState& e, Completion& out);
  void shutdown();

  std::size_t step_shutdown(const ProgressToken& token);
  void free_undelivered(const ProgressToken& token);

  Runtime& runtime;
  const RuntimeOptions options;
  std::unique_ptr<net::Device> device;
  const rank_t rank, ranks;
  const std::size_t eager_limit;
  PacketPool pool;
  OriginSlots slots;
  Endpoints endpoints;
  Windows windows;
  Counters counters;
  ProgressLock progress_lock;
  std::atomic<bool> closing{false};
  Outgoing outgoing;
  Delivery delivery;
  Rendezvous rendezvous;
  Arrivals arrivals;

  // Rounds run by callers (progress(), poll(), recv()), not by the server: while they climb, the
  // callers drive the engine and the server stays out of their way (and off their cores).
  std::atomic<std::uint64_t> caller_rounds{0};

  // Shutdown.
  enum class Phase : std::uint8_t { running, flushing, finishing, done, failed };
  std::atomic<Phase> phase{Phase::running};
  std::chrono::steady_clock::time_point deadline{};
  bool shut_down = false;
  std::string failure;

  // The progress server.
  std::atomic<bool> stop_server{false};
  std::thread server;
};

}  // namespace courier::comm
