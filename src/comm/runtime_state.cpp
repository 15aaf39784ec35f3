#include "runtime_state.hpp"

#include <algorithm>
#include <string>

#include "courier/core/error.hpp"
#include "wire.hpp"

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

RuntimeState::RuntimeState(Runtime& rt, std::unique_ptr<net::Device> dev, RuntimeOptions opts)
    : runtime(rt),
      options(opts),
      device(checked(std::move(dev))),
      rank(device->rank()),
      ranks(device->ranks()),
      eager_limit(eager_limit_for(*device, options)),
      pool(std::max<std::size_t>(options.packet_count, 1), sizeof(wire::Header) + eager_limit),
      windows(rank),
      slots(std::max<std::size_t>(options.max_rendezvous, 1)),
      progress(lock, *device, pool, slots, endpoints, windows, options),
      server(progress, lock, progress.shutdown, rank, options.server_backoff) {
  if (options.packet_count == 0 || options.queue_packets == 0 || options.max_rendezvous == 0) {
    throw Error("comm::Runtime: packet_count, queue_packets and max_rendezvous must be positive");
  }
  create_endpoint(options.initial_endpoint);
  if (options.progress_thread) server.start();
}

RuntimeState::~RuntimeState() {
  server.stop();
  ProgressLock::Guard held = lock.hold();
  free_undelivered(held.token());
}

void RuntimeState::peer_error(rank_t r, const char* what) const {
  throw Error(std::string("comm::Endpoint::") + what + ": rank " + std::to_string(r) + " is outside [0, " +
              std::to_string(ranks) + ")");
}

void RuntimeState::flush() {
  if (server.running()) return;  // the server moves it
  progress.flush();
}

void RuntimeState::free_undelivered(ProgressToken token) {
  const std::size_t endpoint_total = endpoints.count();
  for (std::size_t i = 0; i < endpoint_total; ++i) {
    EndpointState& e = endpoints[i];
    auto free_one = [&](const Completion& c) {
      if (c.op != Op::recv || c.caller_buffer) return;
      e.allocator->deallocate(c.data, c.size);
      bump(counters.freed_undelivered);
    };
    Completion c;
    while (e.queue && e.queue->try_pop(c)) free_one(c);
    Waiting& waiting = e.waiting.get(token);
    for (const Arrival& a : waiting.arrivals) free_one(a.completion);
    waiting.arrivals.clear();
    e.matching.free_unexpected(free_one);
  }
  progress.rendezvous.forget_incoming(token);
  // Packets still queued (a runtime destroyed without shutdown) go back to the pool.
  progress.outgoing.release_queued(token);
}

}  // namespace courier::comm
