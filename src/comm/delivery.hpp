#pragma once
// Delivery: completions to an endpoint's mechanism (queue, synchronizer, handler), run by the
// progress lock's holder. A received message completes in first-packet order: it waits behind
// earlier arrivals of its endpoint (a rendezvous one until its data is in place), and any that
// finds the queue full waits for room; so do origin-side completions. Endpoints with something
// waiting are listed (the backlog), so a round visits those only.
#include <cstddef>
#include <vector>

#include "counters.hpp"
#include "endpoint_state.hpp"
#include "progress_lock.hpp"
#include "shutdown.hpp"

namespace courier::comm {

class Delivery {
 public:
  explicit Delivery(const Shutdown& shutdown) : shutdown_(shutdown) {}

  const Counters& counters() const { return counters_; }

  // A received message, complete now if nothing of e's waits before it (matched first on
  // match_tags endpoints, unless `matched` already); waits otherwise, or is discarded if it has
  // nowhere to go in shutdown.
  void deliver(ProgressToken token, EndpointState& e, const Completion& c, bool matched = false);
  // A rendezvous message, in its place in first-packet order; ready once its put has landed.
  Arrival& hold(ProgressToken token, EndpointState& e, const Completion& c, bool matched = false);
  // An origin-side completion (a send, put or get finished), after those of e's waiting.
  void complete_origin(ProgressToken token, EndpointState& e, const Completion& c);
  // Delivers what waits, for every listed endpoint. `blocked`: arrivals are piling up (a full
  // queue, or too many unclaimed messages). The work done.
  std::size_t deliver_waiting(ProgressToken token, bool closing, bool& blocked) {
    return held_.get(token).backlog.empty() ? 0 : deliver_listed(token, closing, blocked);
  }

  class Catch;

 private:
  struct Catcher {
    EndpointState* endpoint = nullptr;
    Completion* out = nullptr;
    bool caught = false;
  };
  struct Held {
    Catcher catcher;
    std::vector<EndpointState*> backlog;  // endpoints with arrivals or completions waiting
  };

  std::size_t deliver_listed(ProgressToken token, bool closing, bool& blocked);
  bool complete(ProgressToken token, EndpointState& e, const Completion& c);  // to the mechanism
  bool complete_received(ProgressToken token, EndpointState& e, Arrival& a);  // matching first
  std::size_t drain(ProgressToken token, EndpointState& e);  // ready arrivals, in order
  void discard(EndpointState& e, const Completion& c);
  void list(ProgressToken token, EndpointState& e);

  const Shutdown& shutdown_;
  Counters counters_;
  Locked<Held> held_;
};

// For one round of Endpoint::poll: the first completion for `e` goes straight to `out` when
// nothing else waits in e's queue.
class Delivery::Catch {
 public:
  Catch(Delivery& delivery, ProgressToken token, EndpointState& e, Completion& out)
      : catcher_(delivery.held_.get(token).catcher) {
    catcher_ = Catcher{&e, &out, false};
  }
  Catch(const Catch&) = delete;
  Catch& operator=(const Catch&) = delete;
  ~Catch() { catcher_.endpoint = nullptr; }
  bool caught() const { return catcher_.caught; }

 private:
  Catcher& catcher_;
};

}  // namespace courier::comm
