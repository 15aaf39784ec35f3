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
#include <deque>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <unordered_map>
#include <vector>

#include "courier/comm/endpoint.hpp"
#include "courier/comm/runtime.hpp"
#include "courier/core/mpmc_queue.hpp"
#include "courier/core/packet_pool.hpp"
#include "counters.hpp"
#include "endpoint_state.hpp"
#include "endpoints.hpp"
#include "origin_slots.hpp"
#include "outgoing.hpp"
#include "progress_lock.hpp"
#include "windows.hpp"
#include "wire.hpp"

namespace courier::comm {

// A target-side rendezvous: a region exposed for the origin's put.
struct Incoming {
  rank_t source = -1;
  EndpointState* endpoint = nullptr;  // null for one-sided puts into a window
  Arrival* arrival = nullptr;
};

struct PendingExpose {
  rank_t origin = -1;
  std::span<std::byte> region;
  std::uint64_t context = 0;  // the Incoming key
  std::uint64_t slot = 0;     // the origin's slot, echoed in the RTR
};

struct PendingPut {
  rank_t target = -1;
  net::RemoteRegion region;
  std::span<const std::byte> data;
  std::uint64_t context = 0;
};

// What arrived from one source, for the FIN exchange at shutdown.
struct Heard {
  std::uint64_t packets_received = 0;
  bool fin_received = false;
  std::uint64_t fin_count = 0;
};

struct Engine final {
  Engine(Runtime& runtime, std::unique_ptr<net::Device> device, RuntimeOptions options);
  ~Engine();

  static constexpr std::uint64_t get_answer_context = ~std::uint64_t{0};

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

  // What the device reports during a round (net::EventSink, through the round's sink).
  void on_frame(const ProgressToken& token, rank_t source, std::span<const std::byte> frame);
  void on_put_sent(std::uint64_t context);
  void on_put_arrived(std::uint64_t context);

  // [engine] helpers
  bool dispatch(const ProgressToken& token, rank_t source, const wire::Header& h, std::span<const std::byte> payload);
  void deliver_arrival(EndpointState& e, const Completion& c);  // complete, in first-packet order
  std::size_t drain_arrivals(EndpointState& e);
  bool complete(EndpointState& e, const Completion& c);    // to the endpoint's mechanism
  bool complete_received(EndpointState& e, const Completion& c);  // matching, then the mechanism
  void complete_origin(std::uint32_t slot);
  void expose_and_answer(const ProgressToken& token, PendingExpose expose);
  void start_put(rank_t target, const net::RemoteRegion& region, std::span<const std::byte> data,
                 std::uint64_t context);
  void note_backlog(EndpointState& e);
  std::size_t step_shutdown(const ProgressToken& token);
  bool busy_origin() const;
  void discard(EndpointState& e, const Completion& c);
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
  Outgoing outgoing;

  // [engine]
  std::vector<Heard> heard;                 // by source
  // The poller running this round (poll_progress), waiting for a completion of `endpoint`.
  struct Catcher {
    EndpointState* endpoint = nullptr;
    Completion* out = nullptr;
    bool caught = false;
  } catcher;
  std::vector<EndpointState*> backlog;      // endpoints with arrivals or completions waiting
  std::unordered_map<std::uint64_t, Incoming> incoming;
  std::uint64_t next_incoming = 1;
  std::deque<PendingPut> pending_puts;
  std::deque<PendingExpose> pending_exposes;
  std::deque<std::pair<rank_t, std::vector<std::byte>>> orphans;  // for endpoints not created yet
  bool stalled = false;  // arrivals are piling up: stop reading the transport until they drain

  // Rounds run by callers (progress(), poll(), recv()), not by the server: while they climb, the
  // callers drive the engine and the server stays out of their way (and off their cores).
  std::atomic<std::uint64_t> caller_rounds{0};

  // Shutdown.
  enum class Phase : std::uint8_t { running, flushing, finishing, done, failed };
  std::atomic<bool> closing{false};
  std::atomic<Phase> phase{Phase::running};
  std::chrono::steady_clock::time_point deadline{};
  bool shut_down = false;
  std::string failure;

  // The progress server.
  std::atomic<bool> stop_server{false};
  std::thread server;
};

}  // namespace courier::comm
