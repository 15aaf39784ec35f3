#pragma once
// Progress: the runtime's progress machinery -- the parts a round drives, the round (paper 000,
// Algorithm 3) and who runs it. The parts are members, so a round reaches them without following
// a pointer each. Any thread may run a round -- the progress server, a caller's progress(), a
// poll() or recv() that found nothing -- if it gets the progress lock; one that finds it taken
// goes on without waiting. A round costs what there is to do, not what there could be: endpoints
// with completions waiting are listed (Delivery's backlog), destinations with packets queued are
// marked in a bitmap by the posters (Outgoing), so an idle round reads a few words, whatever the
// number of endpoints and ranks.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "arrivals.hpp"
#include "counters.hpp"
#include "courier/comm/runtime.hpp"
#include "courier/core/packet_pool.hpp"
#include "delivery.hpp"
#include "endpoints.hpp"
#include "origin_slots.hpp"
#include "outgoing.hpp"
#include "progress_lock.hpp"
#include "rendezvous.hpp"
#include "shutdown.hpp"
#include "windows.hpp"

namespace courier::comm {

class Progress {
 public:
  Progress(ProgressLock& lock, net::Device& device, PacketPool& pool, OriginSlots& slots, const Endpoints& endpoints,
           Windows& windows, const RuntimeOptions& options)
      : shutdown(device.rank(), device.ranks(), options.shutdown_timeout),
        outgoing(device, pool, lock, slots, device.ranks(), options.queue_packets),
        delivery(shutdown),
        rendezvous(device, slots, endpoints, outgoing, delivery, device.rank()),
        // Packets kept for endpoints not created yet stop the reading past this many. Not the
        // pool's size, which may be tiny (many ranks as threads, chaos mode): a limit of a few
        // would stop a rank reading the very message that lets it create the endpoint.
        arrivals(endpoints, windows, delivery, rendezvous, device.ranks(),
                 std::max<std::size_t>(options.packet_count, 2048)),
        lock_(lock),
        device_(device) {}

  Shutdown shutdown;
  Outgoing outgoing;
  Delivery delivery;
  Rendezvous rendezvous;
  Arrivals arrivals;

  // One round unless another thread is progressing; true if it found work. `by_server` tells
  // the server's rounds from the callers'.
  bool try_round(bool by_server = false);
  // Endpoint::poll found its queue empty: one round (unless another thread is progressing),
  // whose first completion for `e` goes straight to `out` when nothing else waits in e's queue.
  bool poll(EndpointState& e, Completion& out);
  // Runtime::flush without the server: rounds until nothing posted waits for the transport.
  void flush();

  // Rounds run by callers (progress(), poll(), recv()), not by the server: while they climb,
  // the callers drive the runtime and the server stays out of their way (and off their cores).
  std::uint64_t caller_rounds() const { return caller_rounds_.load(std::memory_order_relaxed); }

 private:
  std::size_t round(ProgressToken token);  // the work done
  bool holds_outgoing(ProgressToken token) const;

  ProgressLock& lock_;
  net::Device& device_;
  std::atomic<std::uint64_t> caller_rounds_{0};  // one writer: the lock holder
};

}  // namespace courier::comm
