#pragma once
// RuntimeState: one rank's runtime behind comm::Runtime, made of its parts. Shared with the
// posting threads: the pool, the endpoints, the windows, the origin slots, the per-destination
// queues (Outgoing) and the atomics of each part. Touched only by the progress lock's holder,
// behind a ProgressToken: packing (Outgoing), arrivals and orphans (Arrivals), what waits for
// an endpoint (Delivery), the rendezvous transfers (Rendezvous) and the shutdown's deadline;
// Progress holds those parts and runs their rounds.
#include <cstddef>
#include <memory>

#include "arrivals.hpp"
#include "counters.hpp"
#include "courier/comm/endpoint.hpp"
#include "courier/comm/runtime.hpp"
#include "courier/core/packet_pool.hpp"
#include "delivery.hpp"
#include "endpoints.hpp"
#include "origin_slots.hpp"
#include "outgoing.hpp"
#include "progress.hpp"
#include "progress_lock.hpp"
#include "progress_server.hpp"
#include "rendezvous.hpp"
#include "shutdown.hpp"
#include "windows.hpp"

namespace courier::comm {

struct RuntimeState {
  RuntimeState(Runtime& runtime, std::unique_ptr<net::Device> device, RuntimeOptions options);
  ~RuntimeState();
  RuntimeState(const RuntimeState&) = delete;
  RuntimeState& operator=(const RuntimeState&) = delete;

  // On every post: an inline check, an out-of-line error.
  void check_peer(rank_t r, const char* what) const {
    if (r < 0 || r >= ranks) [[unlikely]] peer_error(r, what);
  }
  [[noreturn]] void peer_error(rank_t r, const char* what) const;
  Endpoint& create_endpoint(EndpointOptions options) { return endpoints.create(*this, std::move(options)); }
  void flush();  // Runtime::flush

  Runtime& runtime;
  const RuntimeOptions options;
  const std::unique_ptr<net::Device> device;
  const rank_t rank, ranks;
  const std::size_t eager_limit;
  Counters counters;  // freed_undelivered
  PacketPool pool;
  Endpoints endpoints;
  Windows windows;
  OriginSlots slots;
  ProgressLock lock;
  Progress progress;
  ProgressServer server;  // last: stopped before the parts it drives go

 private:
  void free_undelivered(ProgressToken token);
};

}  // namespace courier::comm
