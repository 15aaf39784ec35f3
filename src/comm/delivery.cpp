#include "delivery.hpp"

namespace courier::comm {

void Delivery::list(ProgressToken token, EndpointState& e) {
  Waiting& w = e.waiting.get(token);
  if (w.listed) return;
  w.listed = true;
  held_.get(token).backlog.push_back(&e);
}

void Delivery::deliver(ProgressToken token, EndpointState& e, const Completion& c) {
  Waiting& w = e.waiting.get(token);
  if (w.arrivals.empty()) {
    if (complete_received(token, e, c)) return;
    if (shutdown_.closing()) {
      discard(e, c);
      return;
    }
  }
  w.arrivals.push_back(Arrival{c, true});
  list(token, e);
}

Arrival& Delivery::hold(ProgressToken token, EndpointState& e, const Completion& c) {
  Waiting& w = e.waiting.get(token);
  w.arrivals.push_back(Arrival{c, false});
  list(token, e);
  return w.arrivals.back();
}

void Delivery::complete_origin(ProgressToken token, EndpointState& e, const Completion& c) {
  Waiting& w = e.waiting.get(token);
  if (!w.completions.empty() || !complete(token, e, c)) {
    w.completions.push_back(c);
    list(token, e);
  }
}

std::size_t Delivery::deliver_listed(ProgressToken token, bool closing, bool& blocked) {
  std::vector<EndpointState*>& backlog = held_.get(token).backlog;
  std::size_t work = 0;
  for (std::size_t i = 0; i < backlog.size();) {
    EndpointState& e = *backlog[i];
    Waiting& w = e.waiting.get(token);
    while (!w.completions.empty()) {
      if (!complete(token, e, w.completions.front())) {
        if (!closing) break;
        bump(counters_.discarded);
      }
      w.completions.pop_front();
      ++work;
    }
    work += drain(token, e);
    // Messages held for an endpoint whose queue is full (or for one not created yet, see
    // Arrivals) are already in memory. Stopping the transport at the first would stop every
    // other endpoint's traffic too -- e.g. the message that lets a slow rank finish an earlier
    // phase and create the endpoint -- so the runtime holds up to a queue's (or the pool's)
    // worth before it pushes back.
    if (w.arrivals.size() > e.options.queue_capacity && w.arrivals.front().ready) blocked = true;
    const bool unclaimed = e.matching.unexpected_count() > Matching::max_unexpected;
    if (unclaimed) blocked = true;  // nobody claims them
    if (w.completions.empty() && w.arrivals.empty() && !unclaimed) {
      w.listed = false;
      backlog[i] = backlog.back();
      backlog.pop_back();
    } else {
      ++i;
    }
  }
  return work;
}

std::size_t Delivery::drain(ProgressToken token, EndpointState& e) {
  Waiting& w = e.waiting.get(token);
  std::size_t delivered = 0;
  while (!w.arrivals.empty() && w.arrivals.front().ready) {
    if (!complete_received(token, e, w.arrivals.front().completion)) {
      if (!shutdown_.closing()) break;
      discard(e, w.arrivals.front().completion);
    }
    w.arrivals.pop_front();
    ++delivered;
  }
  return delivered;
}

void Delivery::discard(EndpointState& e, const Completion& c) {
  e.allocator->deallocate(c.data, c.size);
  bump(counters_.discarded);
}

bool Delivery::complete(ProgressToken token, EndpointState& e, const Completion& c) {
  switch (e.options.completion) {
    case CompletionKind::queue: {
      // The poller running this round takes it from hand to hand, if it would be next anyway.
      Catcher& catcher = held_.get(token).catcher;
      if (catcher.endpoint == &e && !catcher.caught && e.queue->empty_approx()) [[likely]] {
        *catcher.out = c;
        catcher.caught = true;
        return true;
      }
      return e.queue->try_push(c);
    }
    case CompletionKind::synchronizer:
      e.options.synchronizer->signal(c);
      return true;
    case CompletionKind::handler:
      e.options.handler(c);
      return true;
  }
  return false;
}

bool Delivery::complete_received(ProgressToken token, EndpointState& e, const Completion& received) {
  if (!e.options.match_tags) return complete(token, e, received);
  Completion c = received;
  switch (e.matching.match(c, c.context)) {
    case Matching::Match::kept:
      return true;
    case Matching::Match::kept_too_many:
      list(token, e);  // a round looks again, and holds the transport back while it stays so
      return true;
    case Matching::Match::recv:
      break;
  }
  // Outside the matching's mutex: the mechanism may run a handler that posts a recv here.
  if (complete(token, e, c)) return true;
  e.matching.unmatch(c, c.context);
  return false;
}

}  // namespace courier::comm
