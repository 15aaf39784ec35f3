// The progress engine: the server side of paper 000's Algorithm 3 plus frame packing, and the
// collective shutdown. Arrival handling (dispatch by packet type) is in engine_arrivals.cpp.
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
      frame_bytes(device->max_frame_bytes()),
      eager_limit(eager_limit_for(*device, options)),
      pool(std::max<std::size_t>(options.packet_count, 1), sizeof(wire::Header) + eager_limit),
      slots(std::max<std::size_t>(options.max_rendezvous, 1)),
      free_slots(slots.size()) {
  if (options.packet_count == 0 || options.queue_packets == 0 || options.max_rendezvous == 0) {
    throw Error("comm::Runtime: packet_count, queue_packets and max_rendezvous must be positive");
  }
  for (rank_t r = 0; r < ranks; ++r) {
    peers.push_back(std::make_unique<Peer>(options.queue_packets));
    peers.back()->frame.resize(frame_bytes);
  }
  for (std::uint32_t i = 0; i < slots.size(); ++i) free_slots.try_push(i);
  create_endpoint(options.initial_endpoint);
  if (options.progress_thread) {
    server = std::thread([this] {
      Backoff backoff(options.server_backoff);
      try {
        while (!stop_server.load(std::memory_order_acquire)) {
          if (progress()) {
            backoff.reset();
          } else {
            backoff.pause();
          }
        }
      } catch (const std::exception& e) {
        std::lock_guard lock(progress_mutex);
        failure = std::string("progress server of rank ") + std::to_string(rank) + ": " + e.what();
        phase.store(Phase::failed, std::memory_order_release);
      }
    });
  }
}

Engine::~Engine() {
  stop_server.store(true, std::memory_order_release);
  if (server.joinable()) server.join();
  free_undelivered();
}

void Engine::check_peer(rank_t r, const char* what) const {
  if (r < 0 || r >= ranks) {
    throw Error(std::string("comm::Endpoint::") + what + ": rank " + std::to_string(r) + " is outside [0, " +
                std::to_string(ranks) + ")");
  }
}

void Engine::check_open(const char* what) const {
  if (closing.load(std::memory_order_relaxed)) {
    throw Error(std::string("comm::Endpoint::") + what + " after shutdown began on rank " + std::to_string(rank) +
                "; post everything before Runtime::shutdown");
  }
}

Endpoint& Engine::create_endpoint(EndpointOptions opts) {
  std::lock_guard lock(endpoint_mutex);
  const std::size_t id = endpoint_count.load(std::memory_order_relaxed);
  if (id >= max_endpoints) {
    throw Error("comm::Runtime::create_endpoint: at most " + std::to_string(max_endpoints) + " endpoints per rank");
  }
  if (opts.completion == CompletionKind::synchronizer && opts.synchronizer == nullptr) {
    throw Error("comm::Runtime::create_endpoint: a synchronizer endpoint needs EndpointOptions::synchronizer");
  }
  if (opts.completion == CompletionKind::handler && !opts.handler) {
    throw Error("comm::Runtime::create_endpoint: a handler endpoint needs EndpointOptions::handler");
  }
  auto state = std::make_unique<EndpointState>();
  state->id = static_cast<endpoint_id>(id);
  state->options = std::move(opts);
  state->allocator = state->options.allocator ? state->options.allocator : &HeapAllocator::instance();
  if (state->options.completion == CompletionKind::queue) {
    state->queue = std::make_unique<MpmcQueue<Completion>>(std::max<std::size_t>(state->options.queue_capacity, 1));
  }
  state->handle.reset(new Endpoint(*this, *state));
  Endpoint& handle = *state->handle;
  endpoints[id].store(state.get(), std::memory_order_release);
  endpoint_storage.push_back(std::move(state));
  endpoint_count.store(id + 1, std::memory_order_release);
  return handle;
}

bool Engine::progress() {
  std::unique_lock lock(progress_mutex, std::try_to_lock);
  if (!lock.owns_lock()) return false;
  return progress_locked() > 0;
}

std::size_t Engine::progress_locked() {
  std::size_t work = 0;
  const bool is_closing = closing.load(std::memory_order_relaxed);
  bool blocked = false;

  // 1. Completions that waited for room, in order.
  const std::size_t endpoint_total = endpoint_count.load(std::memory_order_acquire);
  for (std::size_t i = 0; i < endpoint_total; ++i) {
    EndpointState& e = *endpoints[i].load(std::memory_order_acquire);
    while (!e.local_completions.empty()) {
      if (!complete(e, e.local_completions.front())) {
        if (!is_closing) break;
        bump(discarded);
      }
      e.local_completions.pop_front();
      ++work;
    }
    work += drain_arrivals(e);
    if (!e.arrivals.empty() && e.arrivals.front().ready) blocked = true;  // its queue is full
    if (e.unexpected_count > max_unexpected) blocked = true;             // nobody claims them
  }
  if (!orphans.empty()) {
    auto waiting = std::move(orphans);
    orphans.clear();
    for (auto& [source, bytes] : waiting) {
      wire::Header h;
      std::memcpy(&h, bytes.data(), sizeof h);
      if (dispatch(source, h, std::span(bytes).subspan(sizeof h, h.payload))) {
        ++work;
      } else if (is_closing) {
        bump(discarded);
      } else {
        orphans.emplace_back(source, std::move(bytes));
      }
    }
    blocked = blocked || !orphans.empty();
  }
  // Stop reading the transport while arrivals pile up, unless a rendezvous waits for its put
  // notice (which only the transport can bring): then memory is bounded by the senders' slots.
  stalled = blocked && !is_closing && incoming.empty();

  // 2. Transfers the transport refused earlier.
  for (std::size_t n = pending_exposes.size(); n > 0; --n) {
    PendingExpose expose = pending_exposes.front();
    pending_exposes.pop_front();
    expose_and_answer(expose);
  }
  for (std::size_t n = pending_puts.size(); n > 0; --n) {
    PendingPut put = pending_puts.front();
    pending_puts.pop_front();
    start_put(put.target, put.region, put.data, put.context);
  }

  // 3. The network: arrivals and completions (back pressure: not while arrivals pile up).
  if (!stalled) work += device->progress(*this);

  // 4. Pack what is queued for each destination into frames.
  for (rank_t d = 0; d < ranks; ++d) work += flush((rank + 1 + d) % ranks);

  if (phase.load(std::memory_order_relaxed) != Phase::running) work += step_shutdown();
  return work;
}

std::size_t Engine::flush(rank_t dest) {
  Peer& p = *peers[static_cast<std::size_t>(dest)];
  std::size_t frames = 0;
  for (; frames < 4; ++frames) {
    if (p.frame_used == 0) fill_frame(dest);
    if (p.frame_used == 0) break;
    if (device->try_send(dest, std::span(p.frame).first(p.frame_used)) == Post::retry) {
      bump(device_retries);
      break;
    }
    bump(frames_sent);
    bump(frame_bytes_sent, p.frame_used);
    p.frame_used = 0;
  }
  return frames;
}

void Engine::fill_frame(rank_t dest) {
  Peer& p = *peers[static_cast<std::size_t>(dest)];
  std::byte* out = p.frame.data();
  std::size_t used = 0;
  std::size_t packed = 0;
  while (true) {
    if (!p.control.empty()) {
      const std::vector<std::byte>& bytes = p.control.front();
      if (used + bytes.size() > frame_bytes) break;
      std::memcpy(out + used, bytes.data(), bytes.size());
      used += bytes.size();
      if (static_cast<wire::Type>(bytes[offsetof(wire::Header, type)]) != wire::Type::fin) {
        ++p.packets_sent;
        ++packed;
      }
      p.control.pop_front();
      continue;
    }
    std::byte* packet = p.carry;
    if (packet == nullptr && !p.outgoing.try_pop(packet)) break;
    p.carry = nullptr;
    wire::Header h;
    std::memcpy(&h, packet, sizeof h);
    if (used + wire::packed_size(h) > frame_bytes) {
      p.carry = packet;
      break;
    }
    if (h.type == wire::Type::get) {
      // Expose the destination only now: the device belongs to the engine, not to the poster.
      const Rendezvous& rec = slots[h.a];
      net::RemoteRegion named;
      if (device->try_expose(dest, std::span(rec.destination, rec.size), get_expose_flag | h.a, named) ==
          Post::retry) {
        bump(device_retries);
        p.carry = packet;
        break;
      }
      std::memcpy(packet + sizeof h, &named, sizeof named);
    }
    std::memcpy(out + used, packet, sizeof h + h.payload);
    used += wire::packed_size(h);
    pool.release(packet);
    ++p.packets_sent;
    ++packed;
  }
  bump(packets_sent, packed);
  p.frame_used = used;
}

void Engine::send_control(rank_t dest, const wire::Header& h, std::span<const std::byte> payload) {
  std::vector<std::byte> bytes(sizeof h + wire::padded(payload.size()));
  wire::Header header = h;
  header.payload = static_cast<std::uint32_t>(payload.size());
  std::memcpy(bytes.data(), &header, sizeof header);
  if (!payload.empty()) std::memcpy(bytes.data() + sizeof header, payload.data(), payload.size());
  peers[static_cast<std::size_t>(dest)]->control.push_back(std::move(bytes));
}

bool Engine::busy_origin() const { return free_slots.size_approx() != slots.size(); }

std::size_t Engine::step_shutdown() {
  const auto now = std::chrono::steady_clock::now();
  const Phase current = phase.load(std::memory_order_relaxed);
  if (current == Phase::flushing) {
    bool idle = !busy_origin() && pending_puts.empty() && pending_exposes.empty();
    for (auto& p : peers) idle = idle && p->idle();
    if (!idle && now < deadline) return 0;
    if (!idle) {
      // Timed out: whatever is still queued will never be sent.
      for (auto& p : peers) {
        std::byte* packet = p->carry;
        p->carry = nullptr;
        while (packet != nullptr || p->outgoing.try_pop(packet)) {
          pool.release(packet);
          bump(dropped);
          packet = nullptr;
        }
        if (p->frame_used > 0) bump(dropped);
        p->frame_used = 0;
      }
    }
    for (rank_t d = 0; d < ranks; ++d) {
      wire::Header fin;
      fin.type = wire::Type::fin;
      fin.a = peers[static_cast<std::size_t>(d)]->packets_sent;
      send_control(d, fin);
    }
    deadline = now + options.shutdown_timeout;
    phase.store(Phase::finishing, std::memory_order_release);
    return 1;
  }
  if (current == Phase::finishing) {
    bool finished = incoming.empty();
    std::string missing;
    for (rank_t r = 0; r < ranks; ++r) {
      const Peer& p = *peers[static_cast<std::size_t>(r)];
      const bool heard = p.fin_received && p.packets_received >= p.fin_count;
      if (!heard) missing += (missing.empty() ? "" : ", ") + std::to_string(r);
      finished = finished && heard && p.control.empty() && p.frame_used == 0;
    }
    if (finished) {
      phase.store(Phase::done, std::memory_order_release);
      return 1;
    }
    if (now >= deadline) {
      failure = "comm::Runtime::shutdown on rank " + std::to_string(rank) + ": ranks [" + missing +
                "] did not finish shutting down within " + std::to_string(options.shutdown_timeout.count()) +
                " ms; every rank must call shutdown (or destroy its Runtime) and keep its progress running";
      phase.store(Phase::failed, std::memory_order_release);
      return 1;
    }
  }
  return 0;
}

void Engine::shutdown() {
  if (shut_down) return;
  shut_down = true;
  closing.store(true, std::memory_order_relaxed);
  {
    std::lock_guard lock(progress_mutex);
    deadline = std::chrono::steady_clock::now() + options.shutdown_timeout;
    if (phase.load(std::memory_order_relaxed) == Phase::running) phase.store(Phase::flushing, std::memory_order_release);
  }
  Backoff backoff;
  auto finished = [&] {
    const Phase p = phase.load(std::memory_order_acquire);
    return p == Phase::done || p == Phase::failed;
  };
  while (!finished()) {
    if (!server.joinable() && progress()) {
      backoff.reset();
    } else {
      backoff.pause();
    }
  }
  stop_server.store(true, std::memory_order_release);
  if (server.joinable()) server.join();
  if (phase.load(std::memory_order_acquire) == Phase::failed) throw Error(failure);
  device->barrier();
}

void Engine::free_undelivered() {
  const std::size_t endpoint_total = endpoint_count.load(std::memory_order_acquire);
  for (std::size_t i = 0; i < endpoint_total; ++i) {
    EndpointState& e = *endpoints[i].load(std::memory_order_acquire);
    auto free_one = [&](const Completion& c) {
      if (c.op != Op::recv) return;
      e.allocator->deallocate(c.data, c.size);
      bump(freed_undelivered);
    };
    Completion c;
    while (e.queue && e.queue->try_pop(c)) free_one(c);
    for (const Arrival& a : e.arrivals) free_one(a.completion);
    e.arrivals.clear();
    std::lock_guard lock(e.match_mutex);
    for (auto& [key, list] : e.unexpected) {
      for (const Completion& u : list) free_one(u);
    }
    e.unexpected.clear();
  }
  incoming.clear();
  // Packets still queued (a runtime destroyed without shutdown) go back to the pool.
  for (auto& p : peers) {
    std::byte* packet = p->carry;
    p->carry = nullptr;
    while (packet != nullptr || p->outgoing.try_pop(packet)) {
      pool.release(packet);
      packet = nullptr;
    }
  }
}

}  // namespace courier::comm
