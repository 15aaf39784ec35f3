#pragma once
// Endpoint: where a thread posts communication and where completions are reported (paper 002).
// Every rank starts with the initial endpoint (id 0); more can be created, e.g. one per thread.
// A send from endpoint k goes to endpoint k at the destination, so create endpoints in the same
// order on every rank (a message for an endpoint not created yet waits for it).
//
// The completion mechanism is a property of the endpoint, chosen at creation:
//   queue         completions go to the endpoint's bounded MPMC queue; take them with poll().
//                 Messages are delivered in first-packet order: the order their first packet
//                 (EGR or RTS) reached this rank; a rendezvous message holds back later ones
//                 until its data is in place.
//   synchronizer  the runtime calls signal() on the caller's Synchronizer (Counter, Flag or own).
//   handler       the runtime calls the caller's function (active-message style).
// With match_tags, received messages wait until recv(source, tag) claims them (exact match, no
// wildcards); otherwise every received message completes on its own.
//
// Every post answers done (finished, no completion follows), posted (a completion follows) or
// retry (no resources now, nothing happened: back off, let progress run, post again).
#include <cstddef>
#include <span>

#include "courier/comm/allocator.hpp"
#include "courier/comm/completion.hpp"
#include "courier/comm/synchronizer.hpp"

namespace courier::comm {

class Runtime;
struct RuntimeState;
class Endpoints;
struct EndpointState;

enum class CompletionKind : std::uint8_t { queue, synchronizer, handler };

struct EndpointOptions {
  CompletionKind completion = CompletionKind::queue;
  std::size_t queue_capacity = 4096;    // completion queue entries (queue endpoints)
  Synchronizer* synchronizer = nullptr; // the caller's, outliving the runtime (synchronizer endpoints)
  Handler handler;                      // handler endpoints
  Allocator* allocator = nullptr;       // for received messages; null: HeapAllocator
  bool match_tags = false;              // two-sided: messages wait for a matching recv()
  void* context = nullptr;              // reported with every unmatched received message
};

class Endpoint {
 public:
  Endpoint(const Endpoint&) = delete;
  Endpoint& operator=(const Endpoint&) = delete;

  endpoint_id id() const;
  rank_t rank() const;
  rank_t ranks() const;
  Runtime& runtime();

  // Two-sided send of `data` to `dest`. Up to Runtime::eager_limit() bytes go eager: the data is
  // copied and the answer is done (no completion follows). Larger ones go by rendezvous: the
  // answer is posted, `data` must stay valid and unchanged until this endpoint reports
  // Op::send with `context`.
  Post send(rank_t dest, tag_t tag, std::span<const std::byte> data, void* context = nullptr);

  // Queue endpoints: takes the next completion. When there is none, runs one round of progress
  // (unless another thread is progressing) and looks again; false when there is none now.
  bool poll(Completion& out);

  // match_tags endpoints: claims the message from `source` with exactly `tag`. done: it had
  // arrived (or arrived in the round of progress recv runs when it is not there yet) and *out
  // describes it (out must not be null); posted: its completion (Op::recv, with `context`) is
  // reported when it arrives.
  Post recv(rank_t source, tag_t tag, void* context, Completion* out);

  // One-sided: writes `data` at byte `offset` of window `window` at `target`, which exposed it
  // with Runtime::expose_window. Eager-sized puts answer done; larger ones posted (Op::put).
  // The target is not notified.
  Post put(rank_t target, window_id window, std::size_t offset, std::span<const std::byte> data,
           void* context = nullptr);
  // One-sided: reads into.size() bytes at `offset` of `window` at `target` into `into`; answers
  // posted (Op::get follows) or retry. The target's progress answers with a put.
  Post get(rank_t target, window_id window, std::size_t offset, std::span<std::byte> into,
           void* context = nullptr);

  // The allocator received messages came from; release(c) gives a recv's buffer back to it.
  Allocator& allocator();
  void release(const Completion& received);

 private:
  friend class Runtime;
  friend class Endpoints;
  Endpoint(RuntimeState& runtime, EndpointState& state) : runtime_(&runtime), state_(&state) {}
  Post fail_retry();
  RuntimeState* runtime_;
  EndpointState* state_;
};

}  // namespace courier::comm
