#pragma once
// Progress: one round of the runtime's progress (paper 000, Algorithm 3) and who runs it. Any
// thread may run a round -- the progress server, a caller's progress(), a poll() or recv() that
// found nothing -- if it gets the progress lock; one that finds it taken goes on without
// waiting. A round costs what there is to do, not what there could be: endpoints with
// completions waiting are listed (Delivery's backlog), destinations with packets queued are
// marked in a bitmap by the posters (Outgoing), so an idle round reads a few words, whatever the
// number of endpoints and ranks.
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "arrivals.hpp"
#include "counters.hpp"
#include "delivery.hpp"
#include "outgoing.hpp"
#include "progress_lock.hpp"
#include "rendezvous.hpp"
#include "shutdown.hpp"

namespace courier::comm {

class Progress {
 public:
  Progress(ProgressLock& lock, net::Device& device, Shutdown& shutdown, Outgoing& outgoing, Delivery& delivery,
           Rendezvous& rendezvous, Arrivals& arrivals)
      : lock_(lock),
        device_(device),
        shutdown_(shutdown),
        outgoing_(outgoing),
        delivery_(delivery),
        rendezvous_(rendezvous),
        arrivals_(arrivals) {}

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
  std::size_t round(const ProgressToken& token);  // the work done
  bool holds_outgoing(const ProgressToken& token) const;

  ProgressLock& lock_;
  net::Device& device_;
  Shutdown& shutdown_;
  Outgoing& outgoing_;
  Delivery& delivery_;
  Rendezvous& rendezvous_;
  Arrivals& arrivals_;
  std::atomic<std::uint64_t> caller_rounds_{0};  // one writer: the lock holder
};

}  // namespace courier::comm
