#include "delivery.hpp"

namespace courier::comm {

void Delivery::list(ProgressToken token, EndpointState& e) {
  Waiting& w = e.waiting.get(token);
  if (w.listed) return;
  w.listed = true;
  held_.get(token).backlog.push_back(&e);
}

void Delivery::deliver(ProgressToken token, EndpointState& e, const Completion& c, bool matched) {
  Waiting& w = e.waiting.get(token);
  Arrival a{c, true, matched};
  if (w.arrivals.empty()) {
    // Nothing of e's waits before it: complete now. Without tag matching (the common case) the
    // completion goes as it is; with it, the arrival takes its recv's context and buffer first.
    const bool done = e.options.match_tags ? complete_received(token, e, a) : complete(token, e, c);
    if (done) return;
    if (shutdown_.closing()) {
      discard(e, a.completion);
      return;
    }
  }
  w.arrivals.push_back(a);
  list(token, e);
}

Arrival& Delivery::hold(ProgressToken token, EndpointState& e, const Completion& c, bool matched) {
  Waiting& w = e.waiting.get(token);
  w.arrivals.push_back(Arrival{c, false, matched});
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
    if (!complete_received(token, e, w.arrivals.front())) {
      if (!shutdown_.closing()) break;
      discard(e, w.arrivals.front().completion);
    }
    w.arrivals.pop_front();
    ++delivered;
  }
  return delivered;
}

void Delivery::discard(EndpointState& e, const Completion& c) {
  if (!c.caller_buffer) e.allocator->deallocate(c.data, c.size);
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
      e.options.synchronizer.signal(c);
      return true;
    case CompletionKind::handler:
      e.options.handler(c);
      return true;
  }
  return false;
}

bool Delivery::complete_received(ProgressToken token, EndpointState& e, Arrival& a) {
  if (e.options.match_tags && !a.matched) {
    PostedRecv recv;
    switch (e.matching.match(a.completion, recv)) {
      case Matching::Match::kept:
        return true;
      case Matching::Match::kept_too_many:
        list(token, e);  // a round looks again, and holds the transport back while it stays so
        return true;
      case Matching::Match::recv:
        break;
    }
    a.matched = true;
    a.completion.context = recv.context;
    if (recv.caller_buffer) place_in_caller_buffer(*e.allocator, a.completion, recv.into);
  }
  // Outside the matching's mutex: the mechanism may run a handler that posts a recv here. A
  // matched message that finds no room waits, matched, for its turn again.
  return complete(token, e, a.completion);
}

}  // namespace courier::comm
