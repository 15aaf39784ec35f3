// The progress engine: set-up, endpoints and one round of progress (paper 000, Algorithm 3).
// Arrivals are in engine_arrivals.cpp, frame packing in engine_packing.cpp, the collective
// shutdown in engine_shutdown.cpp.
#include "engine.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "courier/core/backoff.hpp"
#include "courier/core/error.hpp"

namespace courier::comm {

namespace {

std::size_t eager_limit_for(const net::Device& device, const RuntimeOptions& options) {
  const std::size_t frame = device.max_frame_bytes();
  if (frame < 256) {
    throw Error("comm::Runtime: transport '" + device.name() + "' offers frames of " + std::to_string(frame) +
                " bytes; the runtime needs at least 256");
  }
  const std::size_t fits = (frame - sizeof(wire::Header)) & ~std::size_t{7};
  const std::size_t limit = std::min(options.eager_bytes, fits);
  // Control packets (a RemoteRegion) travel in pooled packets too.
  return std::max<std::size_t>(limit, 64);
}

std::unique_ptr<net::Device> checked(std::unique_ptr<net::Device> device) {
  if (!device) throw Error("comm::Runtime: no device; pass the rank's transport, e.g. LocalFabric::device(rank)");
  return device;
}

}  // namespace

Engine::Engine(Runtime& rt, std::unique_ptr<net::Device> dev, RuntimeOptions opts)
    : runtime(rt),
      options(opts),
      device(checked(std::move(dev))),
      rank(device->rank()),
      ranks(device->size()),
      eager_limit(eager_limit_for(*device, options)),
      pool(std::max<std::size_t>(options.packet_count, 1), sizeof(wire::Header) + eager_limit),
      slots(std::max<std::size_t>(options.max_rendezvous, 1)),
      windows(rank),
      outgoing(*device, pool, progress_lock, slots, counters, ranks, options.queue_packets),
      delivery(closing, counters),
      rendezvous(*device, slots, endpoints, outgoing, delivery, counters, rank),
      arrivals(endpoints, windows, delivery, rendezvous, counters, ranks, options.packet_count) {
  if (options.packet_count == 0 || options.queue_packets == 0 || options.max_rendezvous == 0) {
    throw Error("comm::Runtime: packet_count, queue_packets and max_rendezvous must be positive");
  }
  create_endpoint(options.initial_endpoint);
  if (options.progress_thread) server = std::thread([this] { serve(); });
}

bool Engine::holds_outgoing(const ProgressToken& token) const {
  return rendezvous.refused_puts(token) || outgoing.holds_packets(token);
}

void Engine::flush() {
  if (server.joinable()) return;  // the server moves it
  // Gives up only after rounds have found nothing to do for this long (see Runtime::flush).
  constexpr auto kRefused = std::chrono::milliseconds(100);
  Backoff backoff;
  auto last_work = std::chrono::steady_clock::now();
  for (;;) {
    {
      auto held = progress_lock.try_hold();
      if (held) {
        bump(caller_rounds);
        const bool worked = progress_locked(held.token()) > 0;
        if (!holds_outgoing(held.token())) return;
        if (worked) {
          backoff.reset();
          last_work = std::chrono::steady_clock::now();
          continue;
        }
      }
    }
    if (std::chrono::steady_clock::now() - last_work > kRefused) return;
    backoff.pause();
  }
}

void Engine::serve() {
  Backoff backoff(options.server_backoff);
  std::uint64_t seen = caller_rounds.load(std::memory_order_relaxed);
  try {
    while (!stop_server.load(std::memory_order_acquire)) {
      // Callers that poll drive the engine themselves (no hand-off between threads on the
      // latency path); competing with them would only take their core. Their rounds stop when
      // they go back to work, and the server takes over at its next look.
      const std::uint64_t now = caller_rounds.load(std::memory_order_relaxed);
      if (now != seen) {
        seen = now;
        backoff.pause();
      } else if (progress(true)) {
        backoff.reset();
      } else {
        backoff.pause();
      }
    }
  } catch (const std::exception& e) {
    auto held = progress_lock.hold();
    failure = std::string("progress server of rank ") + std::to_string(rank) + ": " + e.what();
    phase.store(Phase::failed, std::memory_order_release);
  }
}

Engine::~Engine() {
  stop_server.store(true, std::memory_order_release);
  if (server.joinable()) server.join();
  auto held = progress_lock.hold();
  free_undelivered(held.token());
}

void Engine::peer_error(rank_t r, const char* what) const {
  throw Error(std::string("comm::Endpoint::") + what + ": rank " + std::to_string(r) + " is outside [0, " +
              std::to_string(ranks) + ")");
}

void Engine::closed_error(const char* what) const {
  throw Error(std::string("comm::Endpoint::") + what + " after shutdown began on rank " + std::to_string(rank) +
              "; post everything before Runtime::shutdown");
}

bool Engine::progress(bool by_server) {
  auto held = progress_lock.try_hold();
  if (!held) return false;
  if (!by_server) bump(caller_rounds);
  return progress_locked(held.token()) > 0;
}

bool Engine::poll_progress(EndpointState& e, Completion& out) {
  auto held = progress_lock.try_hold();
  if (!held) return false;
  bump(caller_rounds);
  Delivery::Catch catching(delivery, held.token(), e, out);
  progress_locked(held.token());
  return catching.caught();
}

std::size_t Engine::progress_locked(const ProgressToken& token) {
  outgoing.new_round(token);
  std::size_t work = 0;
  const bool is_closing = closing.load(std::memory_order_relaxed);
  bool blocked = false;

  // 1. Completions that waited for room, in order (only endpoints that have some), and packets
  // for endpoints created since they arrived.
  work += delivery.deliver_waiting(token, is_closing, blocked);
  work += arrivals.retry_orphans(token, is_closing, blocked);
  // Stop reading the transport while arrivals pile up, unless a rendezvous waits for its put
  // notice (which only the transport can bring): then memory is bounded by the senders' slots.
  const bool stalled = blocked && !is_closing && !rendezvous.awaiting_puts(token);

  // 2. Transfers the transport refused earlier.
  rendezvous.retry_refused(token);

  // 3. The network: arrivals and completions (back pressure: not while arrivals pile up).
  if (!stalled) {
    Arrivals::Sink sink(arrivals, token);
    work += device->progress(sink);
  }

  // 4. Pack what is queued for each destination into frames.
  work += outgoing.flush_listed(token);

  if (phase.load(std::memory_order_relaxed) != Phase::running) work += step_shutdown(token);
  return work;
}

}  // namespace courier::comm
