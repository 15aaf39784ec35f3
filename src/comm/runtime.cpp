#include "courier/comm/runtime.hpp"

#include <algorithm>
#include <cstdio>

#include "courier/core/error.hpp"
#include "runtime_state.hpp"

namespace courier::comm {

Runtime::Runtime(std::unique_ptr<net::Device> device, RuntimeOptions options)
    : state_(std::make_unique<RuntimeState>(*this, std::move(device), std::move(options))) {}

Runtime::~Runtime() {
  try {
    shutdown();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "courier: %s\n", e.what());
  }
}

rank_t Runtime::rank() const { return state_->rank; }
rank_t Runtime::ranks() const { return state_->ranks; }
std::vector<int> Runtime::rank_nodes() const { return state_->device->rank_nodes(); }
const RuntimeOptions& Runtime::options() const { return state_->options; }
std::size_t Runtime::eager_limit() const { return state_->eager_limit; }
Endpoint& Runtime::endpoint() { return *state_->endpoints.find(0)->handle; }
Endpoint& Runtime::create_endpoint(EndpointOptions options) { return state_->create_endpoint(std::move(options)); }
bool Runtime::progress() { return state_->progress.try_round(); }
void Runtime::flush() { state_->flush(); }
void Runtime::shutdown() {
  RuntimeState& s = *state_;
  s.progress.shutdown.run(s.lock, s.progress, s.server, *s.device);
}

void Runtime::expose_window(window_id id, std::span<std::byte> memory) {
  state_->windows.expose(id, memory);
}

std::uint64_t Runtime::estimate_bytes(rank_t ranks, const RuntimeOptions& options, std::size_t frame_bytes) {
  const std::size_t eager = std::min(options.eager_bytes, frame_bytes);
  const std::uint64_t packet =
      (sizeof(wire::Header) + eager + cache_line_bytes - 1) / cache_line_bytes * cache_line_bytes;
  const std::uint64_t pool = options.packet_count * (packet + cache_line_bytes);  // packets and the free queue
  const std::uint64_t slots = options.max_rendezvous * (sizeof(Transfer) + cache_line_bytes);
  const auto peers = static_cast<std::uint64_t>(ranks);
  return pool + slots + Outgoing::fixed_bytes(ranks, options.packet_count, frame_bytes) + sizeof(RuntimeState) +
         peers * (Outgoing::bytes_per_destination + 24 /* arrivals per source */);
}

Stats Runtime::stats() const {
  const RuntimeState& e = *state_;
  auto get = [](const std::atomic<std::uint64_t>& a) { return a.load(std::memory_order_relaxed); };
  Stats s;
  const std::size_t endpoints = e.endpoints.count();
  for (std::size_t i = 0; i < endpoints; ++i) s.retries += get(e.endpoints[i].retries);
  // Each part counts what it does; a field no part counts stays 0 in it.
  for (const Counters* c : {&e.progress.outgoing.counters(), &e.progress.arrivals.counters(),
                            &e.progress.delivery.counters(), &e.progress.rendezvous.counters(), &e.counters}) {
    s.messages_sent += get(c->messages_sent);
    s.eager_sent += get(c->eager_sent);
    s.rendezvous_sent += get(c->rendezvous_sent);
    s.bytes_sent += get(c->bytes_sent);
    s.puts += get(c->puts);
    s.gets += get(c->gets);
    s.messages_received += get(c->messages_received);
    s.bytes_received += get(c->bytes_received);
    s.packets_sent += get(c->packets_sent);
    s.packets_received += get(c->packets_received);
    s.frames_sent += get(c->frames_sent);
    s.frames_received += get(c->frames_received);
    s.frame_bytes_sent += get(c->frame_bytes_sent);
    s.device_retries += get(c->device_retries);
    s.discarded += get(c->discarded);
    s.dropped += get(c->dropped);
    s.freed_undelivered += get(c->freed_undelivered);
  }
  s.pool_packets = e.pool.count();
  s.pool_high_water = e.pool.high_water();
  return s;
}

HeapAllocator& HeapAllocator::instance() {
  static HeapAllocator allocator;
  return allocator;
}

}  // namespace courier::comm
