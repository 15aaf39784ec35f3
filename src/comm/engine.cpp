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
      heard(static_cast<std::size_t>(ranks)) {
  if (options.packet_count == 0 || options.queue_packets == 0 || options.max_rendezvous == 0) {
    throw Error("comm::Runtime: packet_count, queue_packets and max_rendezvous must be positive");
  }
  create_endpoint(options.initial_endpoint);
  if (options.progress_thread) server = std::thread([this] { serve(); });
}

bool Engine::holds_outgoing(const ProgressToken& token) const {
  return !pending_puts.empty() || outgoing.holds_packets(token);
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
  catcher = Catcher{&e, &out, false};
  struct Release {
    Catcher& c;
    ~Release() { c.endpoint = nullptr; }
  } release{catcher};
  progress_locked(held.token());
  return catcher.caught;
}

void Engine::note_backlog(EndpointState& e) {
  if (e.in_backlog) return;
  e.in_backlog = true;
  backlog.push_back(&e);
}

namespace {

// What the device reports during a round, handed on with the round's token.
struct RoundSink final : net::EventSink {
  RoundSink(Engine& engine, const ProgressToken& token) : engine(engine), token(token) {}
  void on_frame(rank_t source, std::span<const std::byte> frame) override { engine.on_frame(token, source, frame); }
  void on_put_sent(std::uint64_t context) override { engine.on_put_sent(context); }
  void on_put_arrived(std::uint64_t context) override { engine.on_put_arrived(context); }
  Engine& engine;
  const ProgressToken& token;
};

}  // namespace

std::size_t Engine::progress_locked(const ProgressToken& token) {
  outgoing.new_round(token);
  std::size_t work = 0;
  const bool is_closing = closing.load(std::memory_order_relaxed);
  bool blocked = false;

  // 1. Completions that waited for room, in order (only endpoints that have some).
  for (std::size_t i = 0; i < backlog.size();) {
    EndpointState& e = *backlog[i];
    while (!e.local_completions.empty()) {
      if (!complete(e, e.local_completions.front())) {
        if (!is_closing) break;
        bump(counters.discarded);
      }
      e.local_completions.pop_front();
      ++work;
    }
    work += drain_arrivals(e);
    // Messages held for an endpoint whose queue is full (or, below, for one not created yet) are
    // already in memory. Stopping the transport at the first would stop every other endpoint's
    // traffic too -- e.g. the message that lets a slow rank finish an earlier phase and create the
    // endpoint -- so the engine holds up to a queue's (or the pool's) worth before it pushes back.
    if (e.arrivals.size() > e.options.queue_capacity && e.arrivals.front().ready) blocked = true;
    const bool unclaimed = e.matching.unexpected_count() > Matching::max_unexpected;
    if (unclaimed) blocked = true;  // nobody claims them
    if (e.local_completions.empty() && e.arrivals.empty() && !unclaimed) {
      e.in_backlog = false;
      backlog[i] = backlog.back();
      backlog.pop_back();
    } else {
      ++i;
    }
  }
  if (!orphans.empty()) {
    auto waiting = std::move(orphans);
    orphans.clear();
    for (auto& [source, bytes] : waiting) {
      wire::Header h;
      std::memcpy(&h, bytes.data(), sizeof h);
      if (dispatch(token, source, h, std::span(bytes).subspan(sizeof h, h.payload))) {
        ++work;
      } else if (is_closing) {
        bump(counters.discarded);
      } else {
        orphans.emplace_back(source, std::move(bytes));
      }
    }
    blocked = blocked || orphans.size() > options.packet_count;
  }
  // Stop reading the transport while arrivals pile up, unless a rendezvous waits for its put
  // notice (which only the transport can bring): then memory is bounded by the senders' slots.
  stalled = blocked && !is_closing && incoming.empty();

  // 2. Transfers the transport refused earlier.
  for (std::size_t n = pending_exposes.empty() ? 0 : pending_exposes.size(); n > 0; --n) {
    PendingExpose expose = pending_exposes.front();
    pending_exposes.pop_front();
    expose_and_answer(token, expose);
  }
  for (std::size_t n = pending_puts.empty() ? 0 : pending_puts.size(); n > 0; --n) {
    PendingPut put = pending_puts.front();
    pending_puts.pop_front();
    start_put(put.target, put.region, put.data, put.context);
  }

  // 3. The network: arrivals and completions (back pressure: not while arrivals pile up).
  if (!stalled) {
    RoundSink sink(*this, token);
    work += device->progress(sink);
  }

  // 4. Pack what is queued for each destination into frames.
  work += outgoing.flush_listed(token);

  if (phase.load(std::memory_order_relaxed) != Phase::running) work += step_shutdown(token);
  return work;
}

}  // namespace courier::comm
