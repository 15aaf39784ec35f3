#include "progress.hpp"

#include <chrono>

#include "courier/core/backoff.hpp"

namespace courier::comm {

bool Progress::try_round(bool by_server) {
  ProgressLock::Guard held = lock_.try_hold();
  if (!held) return false;
  if (!by_server) bump(caller_rounds_);
  return round(held.token()) > 0;
}

bool Progress::poll(EndpointState& e, Completion& out) {
  ProgressLock::Guard held = lock_.try_hold();
  if (!held) return false;
  bump(caller_rounds_);
  Delivery::Catch catching(delivery, held.token(), e, out);
  round(held.token());
  return catching.caught();
}

bool Progress::holds_outgoing(ProgressToken token) const {
  return rendezvous.refused_puts(token) || outgoing.holds_packets(token);
}

void Progress::flush() {
  // Gives up only after rounds have found nothing to do for this long (see Runtime::flush).
  constexpr auto kRefused = std::chrono::milliseconds(100);
  Backoff backoff;
  auto last_work = std::chrono::steady_clock::now();
  for (;;) {
    {
      ProgressLock::Guard held = lock_.try_hold();
      if (held) {
        bump(caller_rounds_);
        const bool worked = round(held.token()) > 0;
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

std::size_t Progress::round(ProgressToken token) {
  outgoing.new_round(token);
  std::size_t work = 0;
  const bool closing = shutdown.closing();
  bool blocked = false;

  // 1. Completions that waited for room, in order (only endpoints that have some), and packets
  // for endpoints created since they arrived.
  work += delivery.deliver_waiting(token, closing, blocked);
  work += arrivals.retry_orphans(token, closing, blocked);
  // Stop reading the transport while arrivals pile up, unless a rendezvous waits for its put
  // notice (which only the transport can bring): then memory is bounded by the senders' slots.
  const bool stalled = blocked && !closing && !rendezvous.awaiting_puts(token);

  // 2. Transfers the transport refused earlier.
  rendezvous.retry_refused(token);

  // 3. The network: arrivals and completions (back pressure: not while arrivals pile up).
  if (!stalled) {
    Arrivals::Sink sink(arrivals, token);
    work += device_.progress(sink);
  }

  // 4. Pack what is queued for each destination into frames.
  work += outgoing.flush_listed(token);

  if (!shutdown.running()) work += shutdown.step(token, outgoing, rendezvous, arrivals);
  return work;
}

}  // namespace courier::comm
