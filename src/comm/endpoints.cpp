#include "endpoints.hpp"

#include <algorithm>
#include <string>

#include "courier/core/error.hpp"

namespace courier::comm {

Endpoint& Endpoints::create(RuntimeState& runtime, EndpointOptions options) {
  std::lock_guard lock(mutex_);
  const std::size_t id = count_.load(std::memory_order_relaxed);
  if (id >= max) {
    throw Error("comm::Runtime::create_endpoint: at most " + std::to_string(max) + " endpoints per rank");
  }
  if (options.completion == CompletionKind::synchronizer && !options.synchronizer) {
    throw Error("comm::Runtime::create_endpoint: a synchronizer endpoint needs EndpointOptions::synchronizer");
  }
  if (options.completion == CompletionKind::handler && !options.handler) {
    throw Error("comm::Runtime::create_endpoint: a handler endpoint needs EndpointOptions::handler");
  }
  auto state = std::make_unique<EndpointState>();
  state->id = static_cast<endpoint_id>(id);
  state->options = std::move(options);
  state->allocator = state->options.allocator ? state->options.allocator : &HeapAllocator::instance();
  if (state->options.completion == CompletionKind::queue) {
    state->queue = std::make_unique<MpmcQueue<Completion>>(std::max<std::size_t>(state->options.queue_capacity, 1));
  }
  state->handle.reset(new Endpoint(runtime, *state));
  Endpoint& handle = *state->handle;
  by_id_[id].store(state.get(), std::memory_order_release);
  storage_.push_back(std::move(state));
  count_.store(id + 1, std::memory_order_release);
  return handle;
}

}  // namespace courier::comm
