#include "courier/comm/runtime.hpp"

#include <cstdio>

#include "courier/core/error.hpp"
#include "engine.hpp"

namespace courier::comm {

Runtime::Runtime(std::unique_ptr<net::Device> device, RuntimeOptions options)
    : engine_(std::make_unique<Engine>(*this, std::move(device), std::move(options))) {}

Runtime::~Runtime() {
  try {
    shutdown();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "courier: %s\n", e.what());
  }
}

rank_t Runtime::rank() const { return engine_->rank; }
rank_t Runtime::size() const { return engine_->ranks; }
net::Device& Runtime::device() { return *engine_->device; }
const RuntimeOptions& Runtime::options() const { return engine_->options; }
std::size_t Runtime::eager_limit() const { return engine_->eager_limit; }
Endpoint& Runtime::endpoint() { return *engine_->endpoint(0)->handle; }
Endpoint& Runtime::create_endpoint(EndpointOptions options) { return engine_->create_endpoint(std::move(options)); }
bool Runtime::progress() { return engine_->progress(); }
void Runtime::flush() { engine_->flush(); }
void Runtime::shutdown() { engine_->shutdown(); }

void Runtime::expose_window(window_id id, std::span<std::byte> memory) {
  std::lock_guard lock(engine_->window_mutex);
  engine_->windows[id] = memory;
}

Stats Runtime::stats() const {
  const Engine& e = *engine_;
  auto get = [](const std::atomic<std::uint64_t>& a) { return a.load(std::memory_order_relaxed); };
  Stats s;
  const std::size_t endpoints = e.endpoint_count.load(std::memory_order_acquire);
  for (std::size_t i = 0; i < endpoints; ++i) {
    s.retries += get(e.endpoints[i].load(std::memory_order_acquire)->retries);
  }
  s.messages_sent = get(e.messages_sent);
  s.eager_sent = get(e.eager_sent);
  s.rendezvous_sent = get(e.rendezvous_sent);
  s.bytes_sent = get(e.bytes_sent);
  s.puts = get(e.puts);
  s.gets = get(e.gets);
  s.messages_received = get(e.messages_received);
  s.bytes_received = get(e.bytes_received);
  s.packets_sent = get(e.packets_sent);
  s.packets_received = get(e.packets_received);
  s.frames_sent = get(e.frames_sent);
  s.frames_received = get(e.frames_received);
  s.frame_bytes_sent = get(e.frame_bytes_sent);
  s.device_retries = get(e.device_retries);
  s.discarded = get(e.discarded);
  s.dropped = get(e.dropped);
  s.freed_undelivered = get(e.freed_undelivered);
  s.pool_packets = e.pool.count();
  s.pool_high_water = e.pool.high_water();
  return s;
}

HeapAllocator& HeapAllocator::instance() {
  static HeapAllocator allocator;
  return allocator;
}

}  // namespace courier::comm
