// The collective shutdown (see Runtime's header): flush, exchange FIN with packet counts, drain
// what was announced, meet in a barrier; and freeing what nobody took.
#include <string>

#include "courier/core/backoff.hpp"
#include "courier/core/error.hpp"
#include "engine.hpp"

namespace courier::comm {

std::size_t Engine::step_shutdown(const ProgressToken& token) {
  const auto now = std::chrono::steady_clock::now();
  const Phase current = phase.load(std::memory_order_relaxed);
  if (current == Phase::flushing) {
    const bool idle = rendezvous.idle(token) && !outgoing.holds_packets(token);
    if (!idle && now < deadline) return 0;
    if (!idle) outgoing.drop_unsent(token);  // timed out: whatever is still queued will never be sent
    for (rank_t d = 0; d < ranks; ++d) {
      wire::Header fin;
      fin.type = wire::Type::fin;
      fin.a = outgoing.packets_sent(token, d);
      outgoing.send_control(token, d, fin);
    }
    deadline = now + options.shutdown_timeout;
    phase.store(Phase::finishing, std::memory_order_release);
    return 1;
  }
  if (current == Phase::finishing) {
    bool finished = !rendezvous.awaiting_puts(token);
    std::string missing;
    for (rank_t r = 0; r < ranks; ++r) {
      const bool all = arrivals.heard_all(token, r);
      if (!all) missing += (missing.empty() ? "" : ", ") + std::to_string(r);
      finished = finished && all && outgoing.control_sent(token, r);
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
    auto held = progress_lock.hold();
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

void Engine::free_undelivered(const ProgressToken& token) {
  const std::size_t endpoint_total = endpoints.count();
  for (std::size_t i = 0; i < endpoint_total; ++i) {
    EndpointState& e = endpoints[i];
    auto free_one = [&](const Completion& c) {
      if (c.op != Op::recv) return;
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
  rendezvous.forget_incoming(token);
  // Packets still queued (a runtime destroyed without shutdown) go back to the pool.
  outgoing.release_queued(token);
}

}  // namespace courier::comm
